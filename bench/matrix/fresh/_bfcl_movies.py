# fresh held-out half: do not read while tuning
"""The bfcl-movies tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, turn

_FIND = "Movies_1_FindMovies"
_TIMES = "Movies_1_GetTimesForMovie"
_BUY = "Movies_1_BuyMovieTickets"

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "any mystery films in berkeley ca?",
                call(_FIND, location="Berkeley, CA", genre="Mystery"),
                answer=["night garden"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Could you get me the showtimes for Quiet Orbit on 2026-05-02, in both San Jose, "
                "CA and Portland, OR?",
                call(
                    _TIMES,
                    movie_name="Quiet Orbit",
                    location="San Jose, CA",
                    show_date="2026-05-02",
                ),
                call(
                    _TIMES,
                    movie_name="Quiet Orbit",
                    location="Portland, OR",
                    show_date="2026-05-02",
                ),
                answer=["13:20", "21:05"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Book 4 seats at the first showing of Little Harbor in San Jose, CA on 2026-05-03.",
                call(
                    _TIMES,
                    movie_name="Little Harbor",
                    location="San Jose, CA",
                    show_date="2026-05-03",
                ),
                call(
                    _BUY,
                    movie_name="Little Harbor",
                    number_of_tickets=4,
                    show_date="2026-05-03",
                    location="San Jose, CA",
                    show_time="10:45",
                ),
                answer=["10:45"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Find horror films and animation films in Portland, OR, and the showtimes of "
                "Iron Tide in Berkeley, CA for 2026-05-01 and 2026-05-02.",
                call(_FIND, location="Portland, OR", genre="Horror"),
                call(_FIND, location="Portland, OR", genre="Animation"),
                call(
                    _TIMES, movie_name="Iron Tide", location="Berkeley, CA", show_date="2026-05-01"
                ),
                call(
                    _TIMES, movie_name="Iron Tide", location="Berkeley, CA", show_date="2026-05-02"
                ),
                answer=["ninth hour", "paper moons", "16:00"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("Who directed Jaws?", answer=["spielberg"]),)),
    Case("none", "fresh", (turn("thanks, that's everything"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "What's showing in 3D in Portland, OR?",
                call(_FIND, location="Portland, OR", show_type="3d"),
                answer=["quiet orbit"],
            ),
            turn(
                "and in Berkeley, CA?",
                call(_FIND, location="Berkeley, CA", show_type="3d"),
                answer=["paper moons"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Find me a sci-fi movie in San Jose, CA.",
                call(_FIND, location="San Jose, CA", genre="Sci-fi"),
                answer=["quiet orbit"],
            ),
            turn(
                "What times is it on there on 2026-05-09?",
                call(
                    _TIMES,
                    movie_name="Quiet Orbit",
                    location="San Jose, CA",
                    show_date="2026-05-09",
                ),
                answer=["13:20"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Which family film is on in San Jose, CA, and when does it play on 2026-05-16?",
                call(_FIND, location="San Jose, CA", genre="Family"),
                call(
                    _TIMES,
                    movie_name="Little Harbor",
                    location="San Jose, CA",
                    show_date="2026-05-16",
                ),
                answer=["little harbor", "15:50"],
                ordered=True,
            ),
        ),
    ),
)
