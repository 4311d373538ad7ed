"""Spanish: the team tool sets' development requests, and the words that stand for English."""

from __future__ import annotations

from bench.matrix.languages._translate import Translation

__all__ = ["DEV", "VALUES", "WORDS"]

WORDS: dict[str, tuple[str, ...]] = {
    # Free text the model writes in Spanish.
    "insurance": ("seguro",),
    "result": ("resultado",),
    "late": ("retras", "tarde", "demora"),
    "inventory": ("inventario",),
    "budget review": ("revisión del presupuesto", "revision del presupuesto"),
    "row 4": ("fila 4",),
    "bank": ("banco",),
    "march 18": ("18 de marzo",),
    "18 march": ("18 de marzo",),
    # Words an answer states.
    "sent": ("enviad", "mandad"),
    "reserved": ("reservad",),
    "reservation": ("reserva",),
    "5 left": ("quedan 5", "5 restantes", "5 disponibles"),
    "5 units": ("5 unidades",),
    "cancel": ("cancelad", "cancelé", "eliminad", "anulad", "borrad"),
    "added": ("añadid", "agregad", "cread", "anotad"),
    "booked": ("reservad", "agendad", "programad", "registrad"),
    "scheduled": ("programad", "agendad"),
    "saved": ("guardad",),
    "created": ("cread",),
    "copied": ("copiad",),
    "monday": ("lunes",),
    "tuesday": ("martes",),
    "wednesday": ("miércoles", "miercoles"),
    "thursday": ("jueves",),
    "friday": ("viernes",),
    "saturday": ("sábado", "sabado"),
    "sunday": ("domingo",),
    "body mass index": ("índice de masa corporal", "indice de masa corporal"),
    "project review": ("revisión del proyecto", "revision del proyecto", "revisión de proyecto"),
    "team sync": ("reunión del equipo", "reunión de equipo", "sincronización"),
    "dentist": ("dentista",),
    "groceries": ("compras", "compra", "supermercado"),
    "to-do": ("tarea", "pendiente"),
    "todo": ("tarea", "pendiente"),
    "task": ("tarea", "pendiente"),
    "processing": ("procesando", "en proceso", "procesamiento"),
    "shipped": ("enviado", "en camino"),
}
VALUES: dict[str, tuple[str, ...]] = {
    "Japan": ("Japón", "Japon"),
    "Spain": ("España", "Espana"),
    "Brazil": ("Brasil",),
    "Canada": ("Canadá",),
    "France": ("Francia",),
}

_REQUESTS = {
    # support-bot
    "What is 128 times 32?": "¿Cuánto es 128 por 32?",
    "How many units of SKU-200 are left?": "¿Cuántas unidades de SKU-200 quedan?",
    "What is 12 times 7, and what is 300 divided by 4?": "¿Cuánto es 12 por 7, y cuánto es 300 "
    "dividido entre 4?",
    "Who are customers C-100, C-101 and C-105? Just names and companies, please.": "¿Quiénes "
    "son los clientes C-100, C-101 y C-105? Solo nombres y empresas, por favor.",
    "What is 12 times 12, and what percentage is that of 576?": "¿Cuánto es 12 por 12, y qué "
    "porcentaje es eso de 576?",
    "A 35,000 order gets 18% off. What's the final price, and what percent of our 40,000 "
    "budget is that?": "Un pedido de 35000 tiene un 18 % de descuento. ¿Cuál es el precio "
    "final y qué porcentaje de nuestro presupuesto de 40000 es?",
    "What would all our SKU-100 stock come to at 25 each, with 10% off the total?": "¿Cuánto "
    "sumaría todo nuestro stock de SKU-100 a 25 cada uno, con un 10 % de descuento sobre el "
    "total?",
    "Look up customers C-100 and C-104, and check the stock of SKU-100 and SKU-200.": "Busca a "
    "los clientes C-100 y C-104, y revisa el stock de SKU-100 y SKU-200.",
    "Hi! Who are you?": "¡Hola! ¿Quién eres?",
    "What is the capital of France?": "¿Cuál es la capital de Francia?",
    "How many units of SKU-200 are in stock?": "¿Cuántas unidades de SKU-200 hay en stock?",
    "Reserve 2 of them.": "Reserva 2 de ellas.",
    "What's 45 times 12?": "¿Cuánto es 45 por 12?",
    "Take 15% off that.": "Quítale un 15 % a eso.",
    # calendar
    "What's on my calendar on 2026-03-17?": "¿Qué tengo en el calendario el 2026-03-17?",
    "What day of the week is 2026-12-25?": "¿Qué día de la semana es el 2026-12-25?",
    "What weekday is 2026-07-14, and what weekday is 2026-11-26?": "¿Qué día de la semana es "
    "el 2026-07-14, y cuál el 2026-11-26?",
    "What have I got on March 16, 17 and 18, 2026?": "¿Qué tengo el 16, 17 y 18 de marzo de 2026?",
    "How many days is it from today until 2026-04-01?": "¿Cuántos días faltan desde hoy hasta "
    "el 2026-04-01?",
    "Find me a free 90-minute slot on 2026-03-16 and put 'Budget review' in it.": "Búscame un "
    "hueco libre de 90 minutos el 2026-03-16 y pon ahí 'Revisión del presupuesto'.",
    "Copy my groceries note into a new note called 'Sunday shopping'.": "Copia mi nota "
    "Groceries en una nota nueva llamada 'Sunday shopping'.",
    "What weekdays are 2026-04-10 and 2026-04-14, and what's on my calendar on 2026-03-16 and "
    "2026-03-17?": "¿Qué días de la semana son el 2026-04-10 y el 2026-04-14, y qué tengo en el "
    "calendario el 2026-03-16 y el 2026-03-17?",
    "Good morning!": "¡Buenos días!",
    "How many minutes are there in a day?": "¿Cuántos minutos tiene un día?",
    "What's on my calendar on 2026-03-16?": "¿Qué tengo en el calendario el 2026-03-16?",
    "Cancel it.": "Cancélalo.",
    "When's my first free half hour on 2026-03-17?": "¿Cuándo tengo la primera media hora "
    "libre el 2026-03-17?",
    "Put a call with Nadia there.": "Pon ahí una llamada con Nadia.",
    # orders
    "Convert 42 km to miles.": "Convierte 42 km a millas.",
    "What is the average of 4, 8, 15 and 23?": "¿Cuál es el promedio de 4, 8, 15 y 23?",
    "Convert 10 kg to pounds and 100 fahrenheit to celsius.": "Convierte 10 kg a libras y 100 "
    "grados Fahrenheit a Celsius.",
    "What's 100 USD in euros, pounds and yen?": "¿Cuánto son 100 USD en euros, libras y yenes?",
    "Take the average of 12, 18 and 30, and convert that many km to miles.": "Saca el promedio "
    "de 12, 18 y 30, y convierte esa cantidad de km a millas.",
    "Quote express shipping for a 3 kg parcel to Japan, work out what that is in yen, and send "
    "Sam the yen price.": "Cotiza un envío exprés de un paquete de 3 kg a Japón, calcula cuánto "
    "es en yenes y mándale a Sam el precio en yenes.",
    "Order 5 of SKU-9 for Dana Cruz and message Sam the order number.": "Pide 5 unidades de "
    "SKU-9 para Dana Cruz y envíale a Sam el número de pedido.",
    "Quote standard shipping to Spain for a 2 kg and a 6 kg parcel, and convert 75 USD and 120 "
    "USD to EUR.": "Cotiza el envío estándar a España para un paquete de 2 kg y otro de 6 kg, y "
    "convierte 75 USD y 120 USD a EUR.",
    "Thank you so much!": "¡Muchísimas gracias!",
    "At what temperature in Celsius does water boil at sea level?": "¿A qué temperatura en "
    "grados Celsius hierve el agua a nivel del mar?",
    "How much is 80 EUR in USD?": "¿Cuánto son 80 EUR en USD?",
    "And in GBP?": "¿Y en GBP?",
    "Quote express shipping for a 5 kg parcel to Brazil.": "Cotiza un envío exprés de un "
    "paquete de 5 kg a Brasil.",
    "What's that in euros?": "¿Cuánto es eso en euros?",
    # clinic
    "Which dermatologists do you have?": "¿Qué dermatólogos tienen?",
    "How much is a blood test?": "¿Cuánto cuesta un análisis de sangre?",
    "Pull up the records for patients P-102 and P-105.": "Abre los expedientes de los "
    "pacientes P-102 y P-105.",
    "What do a checkup, a vaccination and an x-ray each cost?": "¿Cuánto cuestan una revisión, "
    "una vacuna y una radiografía, cada una?",
    "Send patient P-103 an e-mail reminding her to bring her insurance card.": "Envíale a la "
    "paciente P-103 un correo recordándole que traiga su tarjeta del seguro.",
    "Book Tom Becker in with Dr. Haddad (D-2) on 2026-03-19 at 10:00 for a consultation.": "Dale "
    "a Tom Becker una cita con el Dr. Haddad (D-2) el 2026-03-19 a las 10:00 para una consulta.",
    "How much will patient P-104 pay out of pocket for an x-ray?": "¿Cuánto pagará de su "
    "bolsillo el paciente P-104 por una radiografía?",
    "Look up patients P-101 and P-104, and tell me what a checkup and a consultation cost.": (
        "Busca a los pacientes P-101 y P-104, y dime cuánto cuestan una revisión y una consulta."
    ),
    "Hello there!": "¡Hola, qué tal!",
    "What does BMI stand for?": "¿Qué significa IMC?",
    "What does a vaccination cost?": "¿Cuánto cuesta una vacuna?",
    "And an x-ray?": "¿Y una radiografía?",
    "Who is patient P-105?": "¿Quién es el paciente P-105?",
    "Text her that her lab results are ready.": "Mándale un SMS diciéndole que sus resultados "
    "de laboratorio están listos.",
}

DEV = Translation("es", _REQUESTS, WORDS, VALUES)
"""The Spanish development requests."""
