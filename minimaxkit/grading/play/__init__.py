"""The class tournament's pure parts: ratings from games, and Swiss pairings."""
