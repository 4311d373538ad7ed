"""German: the team tool sets' development requests, and the words that stand for English."""

from __future__ import annotations

from bench.matrix.languages._translate import Translation

__all__ = ["DEV", "VALUES", "WORDS"]

WORDS: dict[str, tuple[str, ...]] = {
    # Free text the model writes in German.
    "insurance": ("versicherung",),
    "result": ("ergebnis", "befund"),
    "late": ("verspät", "spät"),
    "inventory": ("inventur", "bestand"),
    "budget review": ("budgetbesprechung",),
    "row 4": ("reihe 4",),
    "march 18": ("18. märz", "18 märz"),
    "18 march": ("18. märz", "18 märz"),
    # Words an answer states.
    "sent": ("gesendet", "geschickt", "verschickt", "versendet", "gesandt"),
    "reserved": ("reserviert",),
    "reservation": ("reservierung",),
    "5 left": ("5 übrig", "noch 5", "5 verbleib"),
    "5 units": ("5 einheiten", "5 stück", "5 exemplare"),
    "cancel": ("abgesagt", "storniert", "gelöscht", "entfernt", "abgesag"),
    "added": ("hinzugefügt", "eingetragen", "angelegt", "erstellt"),
    "booked": ("gebucht", "eingetragen", "reserviert"),
    "scheduled": ("geplant", "eingetragen", "angesetzt"),
    "saved": ("gespeichert",),
    "created": ("erstellt", "angelegt"),
    "copied": ("kopiert",),
    "monday": ("montag",),
    "tuesday": ("dienstag",),
    "wednesday": ("mittwoch",),
    "thursday": ("donnerstag",),
    "friday": ("freitag",),
    "saturday": ("samstag",),
    "sunday": ("sonntag",),
    "body mass index": ("body-mass-index", "körpermasseindex", "körpermassenindex"),
    "project review": ("projektbesprechung", "projekt-review", "projektreview"),
    "team sync": ("team-sync", "teammeeting", "team-meeting"),
    "dentist": ("zahnarzt",),
    "groceries": ("einkauf", "einkäufe", "lebensmittel"),
    "to-do": ("aufgabe",),
    "todo": ("aufgabe",),
    "task": ("aufgabe",),
    "processing": ("bearbeitung",),
    "shipped": ("versandt", "verschickt", "unterwegs"),
}
VALUES: dict[str, tuple[str, ...]] = {
    "Spain": ("Spanien",),
    "Brazil": ("Brasilien",),
    "Canada": ("Kanada",),
    "France": ("Frankreich",),
}

_REQUESTS = {
    # support-bot
    "What is 128 times 32?": "Was ist 128 mal 32?",
    "How many units of SKU-200 are left?": "Wie viele Einheiten von SKU-200 sind noch übrig?",
    "What is 12 times 7, and what is 300 divided by 4?": "Was ist 12 mal 7, und was ist 300 "
    "geteilt durch 4?",
    "Who are customers C-100, C-101 and C-105? Just names and companies, please.": "Wer sind "
    "die Kunden C-100, C-101 und C-105? Bitte nur Namen und Firmen.",
    "What is 12 times 12, and what percentage is that of 576?": "Was ist 12 mal 12, und wie "
    "viel Prozent von 576 ist das?",
    "A 35,000 order gets 18% off. What's the final price, and what percent of our 40,000 "
    "budget is that?": "Eine Bestellung über 35.000 bekommt 18 % Rabatt. Wie hoch ist der "
    "Endpreis, und wie viel Prozent unseres Budgets von 40.000 ist das?",
    "What would all our SKU-100 stock come to at 25 each, with 10% off the total?": "Was "
    "würde unser gesamter Bestand an SKU-100 zu je 25 kosten, mit 10 % Rabatt auf die Summe?",
    "Look up customers C-100 and C-104, and check the stock of SKU-100 and SKU-200.": "Schlag "
    "die Kunden C-100 und C-104 nach und prüf den Bestand von SKU-100 und SKU-200.",
    "Hi! Who are you?": "Hallo! Wer bist du?",
    "What is the capital of France?": "Was ist die Hauptstadt von Frankreich?",
    "How many units of SKU-200 are in stock?": "Wie viele Einheiten von SKU-200 sind auf Lager?",
    "Reserve 2 of them.": "Reservier 2 davon.",
    "What's 45 times 12?": "Wie viel ist 45 mal 12?",
    "Take 15% off that.": "Zieh davon 15 % ab.",
    # calendar
    "What's on my calendar on 2026-03-17?": "Was steht am 2026-03-17 in meinem Kalender?",
    "What day of the week is 2026-12-25?": "Welcher Wochentag ist der 2026-12-25?",
    "What weekday is 2026-07-14, and what weekday is 2026-11-26?": "Welcher Wochentag ist der "
    "2026-07-14, und welcher der 2026-11-26?",
    "What have I got on March 16, 17 and 18, 2026?": "Was habe ich am 16., 17. und 18. März "
    "2026 vor?",
    "How many days is it from today until 2026-04-01?": "Wie viele Tage sind es von heute bis "
    "zum 2026-04-01?",
    "Find me a free 90-minute slot on 2026-03-16 and put 'Budget review' in it.": "Such mir am "
    "2026-03-16 einen freien 90-Minuten-Termin und trag dort 'Budgetbesprechung' ein.",
    "Copy my groceries note into a new note called 'Sunday shopping'.": "Kopier meine Notiz "
    "Groceries in eine neue Notiz namens 'Sunday shopping'.",
    "What weekdays are 2026-04-10 and 2026-04-14, and what's on my calendar on 2026-03-16 and "
    "2026-03-17?": "Welche Wochentage sind der 2026-04-10 und der 2026-04-14, und was steht am "
    "2026-03-16 und am 2026-03-17 in meinem Kalender?",
    "Good morning!": "Guten Morgen!",
    "How many minutes are there in a day?": "Wie viele Minuten hat ein Tag?",
    "What's on my calendar on 2026-03-16?": "Was steht am 2026-03-16 in meinem Kalender?",
    "Cancel it.": "Sag das ab.",
    "When's my first free half hour on 2026-03-17?": "Wann habe ich am 2026-03-17 die erste "
    "freie halbe Stunde?",
    "Put a call with Nadia there.": "Trag dort einen Anruf mit Nadia ein.",
    # orders
    "Convert 42 km to miles.": "Rechne 42 km in Meilen um.",
    "What is the average of 4, 8, 15 and 23?": "Was ist der Durchschnitt von 4, 8, 15 und 23?",
    "Convert 10 kg to pounds and 100 fahrenheit to celsius.": "Rechne 10 kg in Pfund um und "
    "100 Fahrenheit in Celsius.",
    "What's 100 USD in euros, pounds and yen?": "Wie viel sind 100 USD in Euro, Pfund und Yen?",
    "Take the average of 12, 18 and 30, and convert that many km to miles.": "Nimm den "
    "Durchschnitt von 12, 18 und 30 und rechne so viele km in Meilen um.",
    "Quote express shipping for a 3 kg parcel to Japan, work out what that is in yen, and send "
    "Sam the yen price.": "Nenn mir den Expressversand für ein 3-kg-Paket nach Japan, rechne "
    "das in Yen um und schick Sam den Preis in Yen.",
    "Order 5 of SKU-9 for Dana Cruz and message Sam the order number.": "Bestell 5 Stück "
    "SKU-9 für Dana Cruz und schick Sam die Bestellnummer.",
    "Quote standard shipping to Spain for a 2 kg and a 6 kg parcel, and convert 75 USD and 120 "
    "USD to EUR.": "Nenn mir den Standardversand nach Spanien für ein 2-kg- und ein 6-kg-Paket, "
    "und rechne 75 USD und 120 USD in EUR um.",
    "Thank you so much!": "Vielen herzlichen Dank!",
    "At what temperature in Celsius does water boil at sea level?": "Bei wie viel Grad Celsius "
    "kocht Wasser auf Meereshöhe?",
    "How much is 80 EUR in USD?": "Wie viel sind 80 EUR in USD?",
    "And in GBP?": "Und in GBP?",
    "Quote express shipping for a 5 kg parcel to Brazil.": "Was kostet der Expressversand für "
    "ein 5-kg-Paket nach Brasilien?",
    "What's that in euros?": "Wie viel ist das in Euro?",
    # clinic
    "Which dermatologists do you have?": "Welche Dermatologen haben Sie?",
    "How much is a blood test?": "Was kostet eine Blutuntersuchung?",
    "Pull up the records for patients P-102 and P-105.": "Ruf die Akten der Patienten P-102 "
    "und P-105 auf.",
    "What do a checkup, a vaccination and an x-ray each cost?": "Was kosten jeweils eine "
    "Vorsorgeuntersuchung, eine Impfung und ein Röntgenbild?",
    "Send patient P-103 an e-mail reminding her to bring her insurance card.": "Schick der "
    "Patientin P-103 eine E-Mail, die sie daran erinnert, ihre Versicherungskarte mitzubringen.",
    "Book Tom Becker in with Dr. Haddad (D-2) on 2026-03-19 at 10:00 for a consultation.": "Trag "
    "Tom Becker am 2026-03-19 um 10:00 bei Dr. Haddad (D-2) für eine Beratung ein.",
    "How much will patient P-104 pay out of pocket for an x-ray?": "Wie viel zahlt der Patient "
    "P-104 für ein Röntgenbild aus eigener Tasche?",
    "Look up patients P-101 and P-104, and tell me what a checkup and a consultation cost.": (
        "Schlag "
        "die Patienten P-101 und P-104 nach und sag mir, was eine Vorsorgeuntersuchung und eine "
        "Beratung kosten."
    ),
    "Hello there!": "Hallo zusammen!",
    "What does BMI stand for?": "Wofür steht BMI?",
    "What does a vaccination cost?": "Was kostet eine Impfung?",
    "And an x-ray?": "Und ein Röntgenbild?",
    "Who is patient P-105?": "Wer ist Patient P-105?",
    "Text her that her lab results are ready.": "Schick ihr eine SMS, dass ihre Laborergebnisse "
    "fertig sind.",
}

DEV = Translation("de", _REQUESTS, WORDS, VALUES)
"""The German development requests."""
