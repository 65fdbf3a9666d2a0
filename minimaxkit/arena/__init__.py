"""Connect Four players and what they play: matches between players under a node budget
(:mod:`.matches`), Bradley-Terry ratings of the games (:mod:`.ratings`), Swiss pairings
(:mod:`.swiss`) and a tournament's schedule, table and pages (:mod:`.standings`). The class
tournament (:mod:`minimaxkit.classroom.tournament`) and lecture 6 play them."""
