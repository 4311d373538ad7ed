"""bfcl-media: BFCL's ``Music_3``, ``Media_3`` and ``Alarm_1`` functions over a fake home hub."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.matrix._cases import Case, ToolSet
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_media import CASES as FRESH

NAME = "bfcl-media"

# (track, artist, album, genre, year)
_SONGS = (
    ("Northern Lights", "Aurora Vale", "Skyline", "Electropop", "2019"),
    ("Paper Planes Home", "Aurora Vale", "Skyline", "Electropop", "2019"),
    ("Dust Road", "The Marlowes", "Gravel", "Country", "2016"),
    ("Engine Heart", "The Marlowes", "Gravel", "Rock", "2016"),
    ("Low Tide Dub", "Kaya Moss", "Saltwater", "Reggae", "2021"),
    ("Midnight Circuit", "Nova Grid", "Voltage", "House", "2023"),
    ("Static Bloom", "Nova Grid", "Voltage", "House", "2023"),
)
# (title, genre, starring)
_MOVIES = (
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
            for t, a, al, g, y in _SONGS
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
            for t, g, s in _MOVIES
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


CASES: tuple[Case, ...] = ()

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
