# fresh held-out half: do not read while tuning
"""The bfcl-media tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

_SONGS = "Music_3_LookupMusic"
_PLAY = "Music_3_PlayMedia"
_MOVIES = "Media_3_FindMovies"
_WATCH = "Media_3_PlayMovie"
_ALARM = "Alarm_1_AddAlarm"
_ALARMS = "Alarm_1_GetAlarms"

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "set an alarm for 05:50 called gym",
                call(_ALARM, new_alarm_time="05:50", new_alarm_name=contains("gym")),
                answer=["5:50"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Would you look up what songs The Marlowes have, and also what Nova Grid has?",
                call(_SONGS, artist="The Marlowes"),
                call(_SONGS, artist="Nova Grid"),
                answer=["dust road", "midnight circuit"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Put on a reggae song on the Patio speaker.",
                call(_SONGS, genre="Reggae"),
                call(_PLAY, track="Low Tide Dub", device="Patio"),
                answer=["low tide dub"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Find me comedy movies and thriller movies, and add alarms at 07:10 and 21:40.",
                call(_MOVIES, genre="Comedy"),
                call(_MOVIES, genre="Thriller"),
                call(_ALARM, new_alarm_time="07:10"),
                call(_ALARM, new_alarm_time="21:40"),
                answer=["laugh track", "glass harbor"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("How many strings does a standard guitar have?", answer=["6"]),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "Play Northern Lights in the kitchen.",
                call(_PLAY, track="Northern Lights", device="Kitchen"),
                answer=["northern lights"],
            ),
            turn(
                "now Engine Heart, same room",
                call(_PLAY, track="Engine Heart", device="Kitchen"),
                answer=["engine heart"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Which movies star Idris Cole? Only dramas, please.",
                call(_MOVIES, genre="Drama", starring="Idris Cole"),
                answer=["last lighthouse"],
            ),
            turn(
                "Stream it with French subtitles.",
                call(_WATCH, title="The Last Lighthouse", subtitle_language="French"),
                answer=[("streaming", "playing", "last lighthouse")],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (turn("what songs came out in 2021", call(_SONGS, year="2021"), answer=["low tide dub"]),),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Find a thriller with Mara Quinn and put it on with Spanish subtitles.",
                call(_MOVIES, genre="Thriller", starring="Mara Quinn"),
                call(_WATCH, title="Glass Harbor", subtitle_language="Spanish"),
                answer=["glass harbor"],
                ordered=True,
            ),
        ),
    ),
)
