# The held-out half, in German: do not read this file while tuning.
"""The team tool sets' held-out requests in German (reported, never tuned on)."""

from __future__ import annotations

from bench.matrix.languages._de import VALUES, WORDS
from bench.matrix.languages._translate import Translation

_REQUESTS = {
    # support-bot
    "What's 15% off 2000?": "Was sind 2000 minus 15 %?",
    "What's the phone number of customer C-103?": "Wie lautet die Telefonnummer von Kunde C-103?",
    "Look up SKU-100 and SKU-300.": "Schlag SKU-100 und SKU-300 nach.",
    "What's the price of each of these after 30% off: 80 and 120?": "Was kostet jedes davon "
    "nach 30 % Rabatt: 80 und 120?",
    "Check the stock of SKU-300 and reserve all of it.": "Prüf den Bestand von SKU-300 und "
    "reservier alles.",
    "Take 20% off 1,450, then split what's left evenly between 4 people.": "Zieh 20 % von 1.450 "
    "ab und teil den Rest gleichmäßig auf 4 Personen auf.",
    "Reserve every unit of SKU-200 we have, then add a to-do to ship it with the reservation "
    "number in it.": "Reservier alle Einheiten von SKU-200, die wir haben, und leg dann eine "
    "Aufgabe an, sie zu versenden, mit der Reservierungsnummer darin.",
    "What's 45% off 300 and 15% off 2,200? And what are 17 times 23 and 144 divided by 12?": "Was "
    "sind 300 minus 45 % und 2.200 minus 15 %? Und was ergeben 17 mal 23 und 144 geteilt "
    "durch 12?",
    "Thanks, that's all for today.": "Danke, das war's für heute.",
    "What's the weather like in Paris today?": "Wie ist das Wetter heute in Paris?",
    "What is 1250 plus 730?": "Was ist 1250 plus 730?",
    "Divide that by 4.": "Teil das durch 4.",
    "Who's our contact at customer C-102?": "Wer ist unser Ansprechpartner bei Kunde C-102?",
    "Add a to-do to send her the new catalogue.": "Leg eine Aufgabe an, ihr den neuen Katalog "
    "zu schicken.",
    # calendar
    "How many days are there between 2026-03-14 and 2026-04-02?": "Wie viele Tage liegen "
    "zwischen dem 2026-03-14 und dem 2026-04-02?",
    "Do I have any notes about groceries?": "Habe ich Notizen zu Groceries?",
    "Show my events on 2026-03-16 and on 2026-03-18.": "Zeig meine Termine am 2026-03-16 und am "
    "2026-03-18.",
    "How many days is it from 2026-03-14 to 2026-07-01, and to 2026-12-25? I need both.": "Wie "
    "viele Tage sind es vom 2026-03-14 bis zum 2026-07-01 und bis zum 2026-12-25? Ich brauche "
    "beides.",
    "Find my wifi password in my notes.": "Such mein Wifi-Passwort in meinen Notizen.",
    "Cancel my project review.": "Sag mein Project Review ab.",
    "How many days until my dentist appointment?": "Wie viele Tage noch bis zu meinem "
    "Dentist-Termin?",
    "Save two notes, 'Locker' saying 'row 4, number 18' and 'Parking' saying 'level B2', and "
    "tell me how many days it is from 2026-03-14 to 2026-04-30 and to 2026-08-15.": "Speicher "
    "zwei Notizen, 'Locker' mit 'Reihe 4, Nummer 18' und 'Parking' mit 'Ebene B2', und sag mir, "
    "wie viele Tage es vom 2026-03-14 bis zum 2026-04-30 und bis zum 2026-08-15 sind.",
    "Tell me a joke.": "Erzähl mir einen Witz.",
    "Can you order me a pizza?": "Kannst du mir eine Pizza bestellen?",
    "Add a note titled Gate code with the text 4417.": "Leg eine Notiz mit dem Titel Gate code "
    "und dem Text 4417 an.",
    "Now read that note back to me.": "Lies mir diese Notiz jetzt vor.",
    "Add a 45-minute 'Call with the bank' on 2026-03-19 at 14:00.": "Trag am 2026-03-19 um 14:00 "
    "einen 45-minütigen 'Anruf bei der Bank' ein.",
    "Actually, scrap that.": "Ach, streich das wieder.",
    # orders
    "What's the status of order O-2002?": "Wie ist der Status der Bestellung O-2002?",
    "How much is 250 USD in EUR?": "Wie viel sind 250 USD in EUR?",
    "Get me shipping quotes for a 2 kg parcel to Canada, one economy and one express.": "Hol mir "
    "Versandangebote für ein 2-kg-Paket nach Kanada, einmal Economy und einmal Express.",
    "How much is 60 kg in pounds, and 150 lb in kg? Both, please.": "Wie viel sind 60 kg in "
    "Pfund und 150 lb in kg? Bitte beides.",
    "Order 2 of SKU-7 for Ana Lima with express shipping, then tell me its status.": "Bestell 2 "
    "Stück SKU-7 für Ana Lima mit Expressversand und sag mir dann den Status.",
    "Convert 10 lb to kg, then get me a standard shipping quote to France for that weight.": (
        "Rechne "
        "10 lb in kg um und hol mir dann ein Angebot für Standardversand nach Frankreich für "
        "dieses Gewicht."
    ),
    "Average these three invoices in euros, 120, 95 and 130, convert that to dollars, and "
    "message the figure to Priya.": "Bilde den Durchschnitt dieser drei Rechnungen in Euro, "
    "120, 95 und 130, rechne ihn in Dollar um und schick Priya den Betrag.",
    "Tell Sam and Lee that the inventory count starts at 3pm. Also, what's 18 km in miles and 40 "
    "lb in kg?": "Sag Sam und Lee, dass die Inventur um 15 Uhr beginnt. Und wie viel sind 18 km "
    "in Meilen und 40 lb in kg?",
    "Who wrote Hamlet?": "Wer hat Hamlet geschrieben?",
    "Can you book me a flight to Rome?": "Kannst du mir einen Flug nach Rom buchen?",
    "Send a high-priority message to Sam saying the shipment is late.": "Schick Sam eine "
    "Nachricht mit hoher Priorität, dass die Lieferung verspätet ist.",
    "Send the same message to Priya.": "Schick dieselbe Nachricht an Priya.",
    "When is order O-2002 arriving?": "Wann kommt die Bestellung O-2002 an?",
    "Let Ben know by message.": "Gib Ben per Nachricht Bescheid.",
    # clinic
    "What appointments does patient P-103 have coming up?": "Welche Termine hat Patientin P-103 "
    "demnächst?",
    "Please cancel appointment A-503.": "Bitte sagen Sie den Termin A-503 ab.",
    "Find the patients called Khan, Sato and Novak.": "Finde die Patienten namens Khan, Sato "
    "und Novak.",
    "What do a blood test and a consultation cost? I need both prices.": "Was kosten eine "
    "Blutuntersuchung und eine Beratung? Ich brauche beide Preise.",
    "Send Kenji Sato an e-mail that his test results are in.": "Schick Kenji Sato eine E-Mail, "
    "dass seine Testergebnisse da sind.",
    "What's the first time Dr. Reyes (D-4) has free on 2026-03-20? Book Lena Novak (P-105) into "
    "it for a vaccination.": "Wann hat Dr. Reyes (D-4) am 2026-03-20 den ersten freien Termin? "
    "Trag Lena Novak (P-105) dort für eine Impfung ein.",
    "What would patient P-102 pay for a consultation after insurance?": "Was würde Patient "
    "P-102 nach Abzug der Versicherung für eine Beratung zahlen?",
    "Find the patients named Gonzalez and Becker, and check Dr. Brandt's (D-3) free slots on "
    "2026-03-18 and 2026-03-19.": "Finde die Patienten namens Gonzalez und Becker, und prüf die "
    "freien Termine von Dr. Brandt (D-3) am 2026-03-18 und am 2026-03-19.",
    "Good evening!": "Guten Abend!",
    "What's the difference between a virus and a bacterium?": "Was ist der Unterschied "
    "zwischen einem Virus und einem Bakterium?",
    "Does Dr. Haddad (D-2) have any openings on 2026-03-17?": "Hat Dr. Haddad (D-2) am "
    "2026-03-17 noch freie Termine?",
    "What about 2026-03-19?": "Und am 2026-03-19?",
    "Can you find patient Maria Gonzalez?": "Kannst du die Patientin Maria Gonzalez finden?",
    "Book her in with Dr. Ward (D-1) for a checkup on 2026-03-17 at 11:00.": "Trag sie am "
    "2026-03-17 um 11:00 bei Dr. Ward (D-1) für eine Vorsorgeuntersuchung ein.",
}

HELD_OUT = Translation("de", _REQUESTS, WORDS, VALUES)
"""The German held-out requests."""
