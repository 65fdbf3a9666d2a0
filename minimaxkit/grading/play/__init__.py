"""Grading by play: assignment 5's games against a ladder of reference players."""
