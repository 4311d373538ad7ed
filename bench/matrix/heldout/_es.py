# The held-out half, in Spanish: do not read this file while tuning.
"""The team tool sets' held-out requests in Spanish (reported, never tuned on)."""

from __future__ import annotations

from bench.matrix.languages._es import VALUES, WORDS
from bench.matrix.languages._translate import Translation

_REQUESTS = {
    # support-bot
    "What's 15% off 2000?": "¿Cuánto es 2000 con un 15 % de descuento?",
    "What's the phone number of customer C-103?": "¿Cuál es el teléfono del cliente C-103?",
    "Look up SKU-100 and SKU-300.": "Consulta SKU-100 y SKU-300.",
    "What's the price of each of these after 30% off: 80 and 120?": "¿Cuál es el precio de "
    "cada uno con un 30 % de descuento: 80 y 120?",
    "Check the stock of SKU-300 and reserve all of it.": "Revisa el stock de SKU-300 y "
    "resérvalo todo.",
    "Take 20% off 1,450, then split what's left evenly between 4 people.": "Quítale un 20 % a "
    "1450 y luego reparte lo que quede a partes iguales entre 4 personas.",
    "Reserve every unit of SKU-200 we have, then add a to-do to ship it with the reservation "
    "number in it.": "Reserva todas las unidades de SKU-200 que tengamos y luego añade una "
    "tarea para enviarlas, con el número de reserva.",
    "What's 45% off 300 and 15% off 2,200? And what are 17 times 23 and 144 divided by 12?": (
        "¿Cuánto es 300 con un 45 % de descuento y 2200 con un 15 %? "
        "¿Y cuánto son 17 por 23 y 144 entre 12?"
    ),
    "Thanks, that's all for today.": "Gracias, eso es todo por hoy.",
    "What's the weather like in Paris today?": "¿Qué tiempo hace hoy en París?",
    "What is 1250 plus 730?": "¿Cuánto es 1250 más 730?",
    "Divide that by 4.": "Divide eso entre 4.",
    "Who's our contact at customer C-102?": "¿Quién es nuestro contacto en el cliente C-102?",
    "Add a to-do to send her the new catalogue.": "Añade una tarea para enviarle el nuevo "
    "catálogo.",
    # calendar
    "How many days are there between 2026-03-14 and 2026-04-02?": "¿Cuántos días hay entre el "
    "2026-03-14 y el 2026-04-02?",
    "Do I have any notes about groceries?": "¿Tengo alguna nota sobre Groceries?",
    "Show my events on 2026-03-16 and on 2026-03-18.": "Muéstrame mis eventos del 2026-03-16 y "
    "del 2026-03-18.",
    "How many days is it from 2026-03-14 to 2026-07-01, and to 2026-12-25? I need both.": (
        "¿Cuántos días hay del 2026-03-14 al 2026-07-01, y al 2026-12-25? Necesito los dos."
    ),
    "Find my wifi password in my notes.": "Busca la contraseña del wifi en mis notas.",
    "Cancel my project review.": "Cancela mi Project review.",
    "How many days until my dentist appointment?": "¿Cuántos días faltan para mi cita Dentist?",
    "Save two notes, 'Locker' saying 'row 4, number 18' and 'Parking' saying 'level B2', and "
    "tell me how many days it is from 2026-03-14 to 2026-04-30 and to 2026-08-15.": "Guarda dos "
    "notas, 'Locker' que diga 'fila 4, número 18' y 'Parking' que diga 'nivel B2', y dime "
    "cuántos días hay del 2026-03-14 al 2026-04-30 y al 2026-08-15.",
    "Tell me a joke.": "Cuéntame un chiste.",
    "Can you order me a pizza?": "¿Me puedes pedir una pizza?",
    "Add a note titled Gate code with the text 4417.": "Añade una nota titulada Gate code con el "
    "texto 4417.",
    "Now read that note back to me.": "Ahora léeme esa nota.",
    "Add a 45-minute 'Call with the bank' on 2026-03-19 at 14:00.": "Añade una 'Llamada con el "
    "banco' de 45 minutos el 2026-03-19 a las 14:00.",
    "Actually, scrap that.": "Mejor olvídalo, bórralo.",
    # orders
    "What's the status of order O-2002?": "¿Cuál es el estado del pedido O-2002?",
    "How much is 250 USD in EUR?": "¿Cuánto son 250 USD en EUR?",
    "Get me shipping quotes for a 2 kg parcel to Canada, one economy and one express.": "Dame "
    "cotizaciones de envío para un paquete de 2 kg a Canadá, una económica y una exprés.",
    "How much is 60 kg in pounds, and 150 lb in kg? Both, please.": "¿Cuánto son 60 kg en "
    "libras, y 150 lb en kg? Las dos, por favor.",
    "Order 2 of SKU-7 for Ana Lima with express shipping, then tell me its status.": "Pide 2 de "
    "SKU-7 para Ana Lima con envío exprés y luego dime su estado.",
    "Convert 10 lb to kg, then get me a standard shipping quote to France for that weight.": (
        "Convierte "
        "10 lb a kg y luego dame una cotización de envío estándar a Francia para ese peso."
    ),
    "Average these three invoices in euros, 120, 95 and 130, convert that to dollars, and "
    "message the figure to Priya.": "Saca el promedio de estas tres facturas en euros, 120, 95 "
    "y 130, conviértelo a dólares y mándale la cifra a Priya.",
    "Tell Sam and Lee that the inventory count starts at 3pm. Also, what's 18 km in miles and 40 "
    "lb in kg?": "Diles a Sam y a Lee que el inventario empieza a las 15:00. Además, ¿cuánto "
    "son 18 km en millas y 40 lb en kg?",
    "Who wrote Hamlet?": "¿Quién escribió Hamlet?",
    "Can you book me a flight to Rome?": "¿Me puedes reservar un vuelo a Roma?",
    "Send a high-priority message to Sam saying the shipment is late.": "Envíale a Sam un "
    "mensaje de prioridad alta diciendo que el envío viene con retraso.",
    "Send the same message to Priya.": "Envía el mismo mensaje a Priya.",
    "When is order O-2002 arriving?": "¿Cuándo llega el pedido O-2002?",
    "Let Ben know by message.": "Avísale a Ben con un mensaje.",
    # clinic
    "What appointments does patient P-103 have coming up?": "¿Qué citas próximas tiene la "
    "paciente P-103?",
    "Please cancel appointment A-503.": "Por favor, cancele la cita A-503.",
    "Find the patients called Khan, Sato and Novak.": "Encuentra a los pacientes que se llaman "
    "Khan, Sato y Novak.",
    "What do a blood test and a consultation cost? I need both prices.": "¿Cuánto cuestan un "
    "análisis de sangre y una consulta? Necesito los dos precios.",
    "Send Kenji Sato an e-mail that his test results are in.": "Envíale a Kenji Sato un correo "
    "diciendo que ya tiene sus resultados.",
    "What's the first time Dr. Reyes (D-4) has free on 2026-03-20? Book Lena Novak (P-105) into "
    "it for a vaccination.": "¿Cuál es la primera hora libre del Dr. Reyes (D-4) el "
    "2026-03-20? Dale esa cita a Lena Novak (P-105) para una vacuna.",
    "What would patient P-102 pay for a consultation after insurance?": "¿Cuánto pagaría el "
    "paciente P-102 por una consulta después del seguro?",
    "Find the patients named Gonzalez and Becker, and check Dr. Brandt's (D-3) free slots on "
    "2026-03-18 and 2026-03-19.": "Encuentra a los pacientes de apellido Gonzalez y Becker, y "
    "revisa los huecos libres de la Dra. Brandt (D-3) el 2026-03-18 y el 2026-03-19.",
    "Good evening!": "¡Buenas noches!",
    "What's the difference between a virus and a bacterium?": "¿Cuál es la diferencia entre un "
    "virus y una bacteria?",
    "Does Dr. Haddad (D-2) have any openings on 2026-03-17?": "¿Tiene el Dr. Haddad (D-2) algún "
    "hueco el 2026-03-17?",
    "What about 2026-03-19?": "¿Y el 2026-03-19?",
    "Can you find patient Maria Gonzalez?": "¿Puedes encontrar a la paciente Maria Gonzalez?",
    "Book her in with Dr. Ward (D-1) for a checkup on 2026-03-17 at 11:00.": "Dale una cita con "
    "la Dra. Ward (D-1) para una revisión el 2026-03-17 a las 11:00.",
}

HELD_OUT = Translation("es", _REQUESTS, WORDS, VALUES)
"""The Spanish held-out requests."""
