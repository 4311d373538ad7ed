"""bfcl-movies: BFCL's ``Movies_1`` functions (find, show times, tickets) over a fake cinema."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_movies import CASES as FRESH

NAME = "bfcl-movies"

# city -> (theater, ((title, genre, show type), ...))
_LISTINGS: dict[str, tuple[str, tuple[tuple[str, str, str], ...]]] = {
    "berkeley, ca": (
        "California Theatre",
        (
            ("The Night Garden", "Mystery", "regular"),
            ("Iron Tide", "Action", "imax"),
            ("Paper Moons", "Animation", "3d"),
            ("Salt and Stone", "Drama", "regular"),
        ),
    ),
    "san jose, ca": (
        "Century 20",
        (
            ("Iron Tide", "Action", "regular"),
            ("Quiet Orbit", "Sci-fi", "imax"),
            ("Little Harbor", "Family", "regular"),
        ),
    ),
    "portland, or": (
        "Cinema 21",
        (
            ("Paper Moons", "Animation", "regular"),
            ("The Ninth Hour", "Horror", "regular"),
            ("Quiet Orbit", "Sci-fi", "3d"),
        ),
    ),
}
_TIMES_DATA = {
    "the night garden": ["17:30", "20:45"],
    "iron tide": ["16:00", "19:15", "22:00"],
    "paper moons": ["11:00", "14:30"],
    "salt and stone": ["18:10"],
    "quiet orbit": ["13:20", "21:05"],
    "little harbor": ["10:45", "15:50"],
    "the ninth hour": ["22:30"],
}
_PRICES = {"regular": 12.5, "3d": 15.0, "imax": 18.0}


def _key(text: str) -> str:
    return " ".join(text.lower().replace(",", ", ").split())


def _any(value: Any) -> bool:
    return value in (None, "", "dontcare", "Any Theater") or str(value).lower() == "any"


@dataclass
class _Cinema:
    bought: list[dict[str, Any]] = field(default_factory=list)

    def Movies_1_FindMovies(
        self,
        location: str,
        genre: str = "dontcare",
        show_type: str = "dontcare",
        theater_name: str = "dontcare",
    ) -> Any:
        theater, films = _LISTINGS.get(_key(location), ("", ()))
        found = [
            {"movie_name": t, "genre": g, "show_type": s, "theater_name": theater}
            for t, g, s in films
            if (_any(genre) or g.lower() == genre.lower())
            and (_any(show_type) or s == show_type.lower())
            and (_any(theater_name) or theater_name.lower() in theater.lower())
        ]
        return {"location": location, "movies": found}

    def Movies_1_GetTimesForMovie(
        self,
        movie_name: str,
        location: str,
        show_date: str,
        show_type: str = "regular",
        theater_name: str = "Any Theater",
    ) -> Any:
        theater, films = _LISTINGS.get(_key(location), ("", ()))
        playing = any(t.lower() == movie_name.strip().lower() for t, _, _ in films)
        times = _TIMES_DATA.get(movie_name.strip().lower(), []) if playing else []
        return {
            "movie_name": movie_name,
            "location": location,
            "theater_name": theater,
            "show_date": show_date,
            "show_times": times,
        }

    def Movies_1_BuyMovieTickets(
        self,
        movie_name: str,
        number_of_tickets: int,
        show_date: str,
        location: str,
        show_time: str,
        show_type: str = "regular",
    ) -> Any:
        price = _PRICES.get(show_type.lower(), 12.5)
        ticket = {
            "status": "confirmed",
            "confirmation": f"MT-{1001 + len(self.bought)}",
            "movie_name": movie_name,
            "show_date": show_date,
            "show_time": show_time,
            "number_of_tickets": number_of_tickets,
            "total_price": round(price * number_of_tickets, 2),
        }
        self.bought.append(ticket)
        return ticket


def build() -> list[Any]:
    """The three tools over a fresh cinema (three cities, seven films, fixed show times)."""
    return tools(NAME, _Cinema())


_FIND = "Movies_1_FindMovies"
_TIMES = "Movies_1_GetTimesForMovie"
_BUY = "Movies_1_BuyMovieTickets"

CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "What horror movies are playing in Portland, OR?",
                call(_FIND, location="Portland, OR", genre="Horror"),
                answer=["ninth hour"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "When is Paper Moons showing in Berkeley, CA on 2026-04-11?",
                call(
                    _TIMES,
                    movie_name="Paper Moons",
                    location="Berkeley, CA",
                    show_date="2026-04-11",
                ),
                answer=["11:00", "14:30"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Find IMAX movies in Berkeley, CA and in San Jose, CA.",
                call(_FIND, location="Berkeley, CA", show_type="imax"),
                call(_FIND, location="San Jose, CA", show_type="imax"),
                answer=["iron tide", "quiet orbit"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Showtimes for Iron Tide in San Jose, CA on 2026-04-10 and on 2026-04-12?",
                call(
                    _TIMES, movie_name="Iron Tide", location="San Jose, CA", show_date="2026-04-10"
                ),
                call(
                    _TIMES, movie_name="Iron Tide", location="San Jose, CA", show_date="2026-04-12"
                ),
                answer=["16:00", "19:15"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Buy 2 tickets for the earliest showing of Salt and Stone in Berkeley, CA on "
                "2026-04-11.",
                call(
                    _TIMES,
                    movie_name="Salt and Stone",
                    location="Berkeley, CA",
                    show_date="2026-04-11",
                ),
                call(
                    _BUY,
                    movie_name="Salt and Stone",
                    number_of_tickets=2,
                    show_date="2026-04-11",
                    location="Berkeley, CA",
                    show_time="18:10",
                ),
                answer=["18:10"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Find an animation movie in Portland, OR and tell me its showtimes on 2026-04-18.",
                call(_FIND, location="Portland, OR", genre="Animation"),
                call(
                    _TIMES,
                    movie_name="Paper Moons",
                    location="Portland, OR",
                    show_date="2026-04-18",
                ),
                answer=["paper moons", "11:00"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Find sci-fi movies in San Jose, CA and in Portland, OR, and get showtimes for "
                "Little Harbor in San Jose, CA on 2026-04-10 and 2026-04-11.",
                call(_FIND, location="San Jose, CA", genre="Sci-fi"),
                call(_FIND, location="Portland, OR", genre="Sci-fi"),
                call(
                    _TIMES,
                    movie_name="Little Harbor",
                    location="San Jose, CA",
                    show_date="2026-04-10",
                ),
                call(
                    _TIMES,
                    movie_name="Little Harbor",
                    location="San Jose, CA",
                    show_date="2026-04-11",
                ),
                answer=["quiet orbit", "10:45"],
            ),
        ),
    ),
    Case("none", "dev", (turn("What's a good snack to bring to the movies?"),)),
    Case("none", "dev", (turn("Hi there!"),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "Any action movies in Berkeley, CA?",
                call(_FIND, location="Berkeley, CA", genre="Action"),
                answer=["iron tide"],
            ),
            turn(
                "How about San Jose, CA?",
                call(_FIND, location="San Jose, CA", genre="Action"),
                answer=["iron tide"],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "When is The Night Garden on in Berkeley, CA on 2026-04-11?",
                call(
                    _TIMES,
                    movie_name="The Night Garden",
                    location="Berkeley, CA",
                    show_date="2026-04-11",
                ),
                answer=["17:30", "20:45"],
            ),
            turn(
                "Get me 3 tickets for the later one.",
                call(
                    _BUY,
                    movie_name="The Night Garden",
                    number_of_tickets=3,
                    show_date="2026-04-11",
                    location="Berkeley, CA",
                    show_time="20:45",
                ),
                answer=[("mt-1001", "confirmed", "booked", "purchased")],
            ),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
