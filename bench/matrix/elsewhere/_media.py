"""bfcl-media: BFCL's ``Music_3``, ``Media_3`` and ``Alarm_1`` functions over a fake home hub."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, contains, one_of, turn
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_media import CASES as FRESH

NAME = "bfcl-media"

# (track, artist, album, genre, year)
_SONGS_DATA = (
    ("Northern Lights", "Aurora Vale", "Skyline", "Electropop", "2019"),
    ("Paper Planes Home", "Aurora Vale", "Skyline", "Electropop", "2019"),
    ("Dust Road", "The Marlowes", "Gravel", "Country", "2016"),
    ("Engine Heart", "The Marlowes", "Gravel", "Rock", "2016"),
    ("Low Tide Dub", "Kaya Moss", "Saltwater", "Reggae", "2021"),
    ("Midnight Circuit", "Nova Grid", "Voltage", "House", "2023"),
    ("Static Bloom", "Nova Grid", "Voltage", "House", "2023"),
)
# (title, genre, starring)
_MOVIES_DATA = (
    ("Glass Harbor", "Thriller", "Mara Quinn"),
    ("The Last Lighthouse", "Drama", "Idris Cole"),
    ("Tiny Titans", "Animation", "Leo Park"),
    ("Laugh Track", "Comedy", "Rhea Patel"),
    ("Night Shift Nine", "Thriller", "Idris Cole"),
    ("Moon Bakery", "Comedy", "Mara Quinn"),
)


def _any(value: Any) -> bool:
    return value in (None, "") or str(value).lower() in ("dontcare", "any")


@dataclass
class _Hub:
    alarms: list[dict[str, Any]] = field(
        default_factory=lambda: [
            {"alarm_id": "AL-1", "time": "06:45", "name": "Wake up", "enabled": True},
            {"alarm_id": "AL-2", "time": "17:30", "name": "Pick up kids", "enabled": False},
        ]
    )
    playing: list[dict[str, Any]] = field(default_factory=list)

    def Music_3_LookupMusic(
        self,
        artist: str = "dontcare",
        album: str = "dontcare",
        genre: str = "dontcare",
        year: str = "dontcare",
    ) -> Any:
        found = [
            {"track": t, "artist": a, "album": al, "genre": g, "year": y}
            for t, a, al, g, y in _SONGS_DATA
            if (_any(artist) or a.lower() == artist.strip().lower())
            and (_any(album) or al.lower() == album.strip().lower())
            and (_any(genre) or g.lower() == genre.lower())
            and (_any(year) or y == str(year))
        ]
        return {"songs": found}

    def Music_3_PlayMedia(
        self, track: str, artist: str = "any", device: str = "Living room", album: str = "any"
    ) -> Any:
        now = {"status": "playing", "track": track, "artist": artist, "device": device}
        self.playing.append(now)
        return now

    def Media_3_FindMovies(self, genre: str, starring: str = "Any") -> Any:
        found = [
            {"title": t, "genre": g, "starring": s}
            for t, g, s in _MOVIES_DATA
            if g.lower() == genre.lower() and (_any(starring) or s.lower() == starring.lower())
        ]
        return {"movies": found}

    def Media_3_PlayMovie(self, title: str, subtitle_language: str = "English") -> Any:
        now = {"status": "streaming", "title": title, "subtitle_language": subtitle_language}
        self.playing.append(now)
        return now

    def Alarm_1_AddAlarm(self, new_alarm_time: str, new_alarm_name: str = "New alarm") -> Any:
        alarm = {
            "alarm_id": f"AL-{len(self.alarms) + 1}",
            "time": new_alarm_time,
            "name": new_alarm_name,
            "enabled": True,
        }
        self.alarms.append(alarm)
        return {"status": "set", **alarm}

    def Alarm_1_GetAlarms(
        self, user_id: str, include_disabled: bool = False, date: str | None = None
    ) -> Any:
        shown = [a for a in self.alarms if a["enabled"] or include_disabled]
        return {"user_id": user_id, "alarms": shown}


def build() -> list[Any]:
    """The six tools over a fresh hub (seven songs, six movies, two alarms)."""
    return tools(NAME, _Hub())


_SONGS = "Music_3_LookupMusic"
_PLAY = "Music_3_PlayMedia"
_MOVIES = "Media_3_FindMovies"
_WATCH = "Media_3_PlayMovie"
_ALARM = "Alarm_1_AddAlarm"
_ALARMS = "Alarm_1_GetAlarms"

CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "Play Dust Road on the living room speaker.",
                call(_PLAY, track="Dust Road", device="Living room"),
                answer=["dust road"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "What alarms do I have? My user id is u-417.",
                call(_ALARMS, user_id="u-417"),
                answer=["6:45"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Look up house songs and electropop songs.",
                call(_SONGS, genre="House"),
                call(_SONGS, genre="Electropop"),
                answer=["midnight circuit", "northern lights"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Find a comedy starring Rhea Patel and stream it.",
                call(_MOVIES, genre="Comedy", starring="Rhea Patel"),
                call(_WATCH, title="Laugh Track"),
                answer=["laugh track"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Play a song from the album Gravel in the kitchen.",
                call(_SONGS, album="Gravel"),
                call(_PLAY, track=one_of("Dust Road", "Engine Heart"), device="Kitchen"),
                answer=[("dust road", "engine heart")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Set alarms for 06:15 and 06:30, and find thriller and animation movies.",
                call(_ALARM, new_alarm_time="06:15"),
                call(_ALARM, new_alarm_time="06:30"),
                call(_MOVIES, genre="Thriller"),
                call(_MOVIES, genre="Animation"),
                answer=["glass harbor", "tiny titans"],
            ),
        ),
    ),
    Case("none", "dev", (turn("Who sang Bohemian Rhapsody?", answer=["queen"]),)),
    Case("none", "dev", (turn("Good night!"),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "Look up songs by Aurora Vale.",
                call(_SONGS, artist="Aurora Vale"),
                answer=["northern lights"],
            ),
            turn(
                "And by Nova Grid?", call(_SONGS, artist="Nova Grid"), answer=["midnight circuit"]
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "Show me my alarms including disabled ones, user id u-417.",
                call(_ALARMS, user_id="u-417", include_disabled=True),
                answer=["17:30"],
            ),
            turn(
                "Add another alarm at the same time as the disabled one, called School run.",
                call(_ALARM, new_alarm_time="17:30", new_alarm_name=contains("school run")),
                answer=["17:30"],
            ),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
