"""A fourth domain: a clinic's front desk, ten tools whose results carry text a chain passes on.

A patient's id, name, e-mail address and phone number, a doctor's free slots and an
appointment id come back in results and are needed by the next call: booking, messaging,
cancelling. Everything is seeded and "today" is fixed, so every run gets the same results.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import Field

from springtail import Param, tool, tool_callbacks

TODAY = date(2026, 3, 14)
"""A Saturday; the seeded appointments are in the week after."""

Specialty = Literal["general practice", "cardiology", "dermatology", "pediatrics"]
VisitType = Literal["checkup", "consultation", "vaccination", "blood test", "x-ray"]
Channel = Literal["email", "sms"]

PRICES: dict[str, float] = {
    "checkup": 90.0,
    "consultation": 120.0,
    "vaccination": 45.0,
    "blood test": 60.0,
    "x-ray": 180.0,
}
SLOTS = ("09:00", "10:00", "11:00", "14:00", "15:00", "16:00")
_WEEKDAYS = ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays")


@dataclass(frozen=True)
class Patient:
    """A registered patient."""

    id: str
    name: str
    email: str
    phone: str
    born: date
    coverage: int
    """The share of a visit's price the patient's insurance pays, in percent."""


@dataclass(frozen=True)
class Doctor:
    """A doctor and the weekdays they see patients (0 is Monday)."""

    id: str
    name: str
    specialty: Specialty
    days: tuple[int, ...]


@dataclass
class Appointment:
    """A booked visit."""

    id: str
    patient_id: str
    doctor_id: str
    day: date
    time: str
    visit_type: str


PATIENTS = (
    Patient(
        "P-101",
        "Maria Gonzalez",
        "maria.gonzalez@mailbox.example",
        "+1 415 555 0101",
        date(1984, 5, 12),
        80,
    ),
    Patient(
        "P-102", "Tom Becker", "tom.becker@post.example", "+49 30 555 0102", date(1977, 11, 3), 50
    ),
    Patient(
        "P-103",
        "Aisha Khan",
        "aisha.khan@mailbox.example",
        "+44 20 555 0103",
        date(1991, 8, 30),
        90,
    ),
    Patient(
        "P-104", "Kenji Sato", "k.sato@netmail.example", "+81 3 555 0104", date(1969, 2, 17), 70
    ),
    Patient(
        "P-105", "Lena Novak", "lena.novak@post.example", "+420 2 555 0105", date(2001, 12, 9), 0
    ),
)
DOCTORS = (
    Doctor("D-1", "Dr. Helen Ward", "general practice", (0, 1, 2, 3, 4)),
    Doctor("D-2", "Dr. Omar Haddad", "cardiology", (1, 3)),
    Doctor("D-3", "Dr. Julia Brandt", "dermatology", (0, 2, 3)),
    Doctor("D-4", "Dr. Samuel Reyes", "pediatrics", (0, 1, 4)),
)

_DOCTOR_NAMES = {d.id: d.name for d in DOCTORS}


def _seed() -> list[Appointment]:
    return [
        Appointment("A-501", "P-101", "D-1", date(2026, 3, 16), "10:00", "checkup"),
        Appointment("A-502", "P-103", "D-3", date(2026, 3, 18), "14:00", "consultation"),
        Appointment("A-503", "P-104", "D-2", date(2026, 3, 17), "09:00", "consultation"),
        Appointment("A-504", "P-102", "D-4", date(2026, 3, 20), "09:00", "vaccination"),
    ]


_PatientId = Annotated[str, Param("The patient id, e.g. P-101")]
_DoctorId = Annotated[str, Param("The doctor id, e.g. D-1")]


@dataclass
class Clinic:
    """The front desk over its patients, doctors and appointments."""

    appointments: list[Appointment] = field(default_factory=_seed)
    messages: list[tuple[str, str, str | None, str]] = field(default_factory=list)
    next_number: int = 505

    def _patient(self, patient_id: str) -> Patient | None:
        key = patient_id.strip().upper()
        return next((p for p in PATIENTS if p.id == key), None)

    def _doctor(self, doctor_id: str) -> Doctor | None:
        key = doctor_id.strip().upper()
        return next((d for d in DOCTORS if d.id == key), None)

    def _free(self, doctor: Doctor, day: date) -> list[str]:
        taken = {a.time for a in self.appointments if a.doctor_id == doctor.id and a.day == day}
        return [s for s in SLOTS if s not in taken]

    @tool(description="Find patients by name (full or part of it); returns their ids and names.")
    def find_patient(self, name: Annotated[str, Param("A name or part of one, e.g. Khan")]) -> str:
        words = name.lower().split()
        found = [
            {"patient_id": p.id, "name": p.name, "born": p.born.isoformat()}
            for p in PATIENTS
            if words and all(w in p.name.lower() for w in words)
        ]
        return json.dumps(found) if found else f"No patient matches {name!r}."

    @tool(
        description=(
            "A patient's record by id: name, date of birth, e-mail address, phone number and "
            "how much of a visit their insurance covers."
        )
    )
    def patient_lookup(self, patient_id: _PatientId) -> str:
        p = self._patient(patient_id)
        if p is None:
            return f"No patient with id {patient_id!r}."
        return (
            f"Patient {p.id}: {p.name}, born {p.born.isoformat()}; e-mail {p.email}; "
            f"phone {p.phone}; insurance covers {p.coverage}% of a visit."
        )

    @tool(description="List the clinic's doctors with their ids, optionally of one specialty.")
    def list_doctors(self, specialty: Specialty | None = None) -> str:
        found = [
            {
                "doctor_id": d.id,
                "name": d.name,
                "specialty": d.specialty,
                "works": ", ".join(_WEEKDAYS[i] for i in d.days),
            }
            for d in DOCTORS
            if specialty is None or d.specialty == specialty
        ]
        return json.dumps(found)

    @tool(description="A doctor's free appointment times on one day.")
    def doctor_availability(
        self, doctor_id: _DoctorId, day: Annotated[date, Param("The day, YYYY-MM-DD")]
    ) -> str:
        doctor = self._doctor(doctor_id)
        if doctor is None:
            return f"No doctor with id {doctor_id!r}."
        if day.weekday() not in doctor.days:
            return f"{doctor.name} does not see patients on {_WEEKDAYS[day.weekday()]}."
        free = self._free(doctor, day)
        return f"{doctor.name} on {day.isoformat()}: free at {', '.join(free) or 'no time'}."

    @tool(description="Book an appointment for a patient with a doctor; returns its id.")
    def book_appointment(
        self,
        patient_id: _PatientId,
        doctor_id: _DoctorId,
        day: Annotated[date, Param("The day, YYYY-MM-DD")],
        time: Annotated[
            str, Param("The start time, HH:MM"), Field(pattern=r"^[0-2][0-9]:[0-5][0-9]$")
        ],
        visit_type: VisitType = "consultation",
    ) -> str:
        patient, doctor = self._patient(patient_id), self._doctor(doctor_id)
        if patient is None or doctor is None:
            missing = "patient" if patient is None else "doctor"
            return f"No {missing} with that id; nothing was booked."
        if day <= TODAY:
            return f"{day.isoformat()} is not a future day; nothing was booked."
        if day.weekday() not in doctor.days:
            return f"{doctor.name} does not see patients on {_WEEKDAYS[day.weekday()]}."
        free = self._free(doctor, day)
        if time not in free:
            taken = f"{doctor.name} is not free at {time} on {day.isoformat()}"
            return f"{taken}; free: {', '.join(free)}. Nothing was booked."
        appointment = Appointment(
            f"A-{self.next_number}", patient.id, doctor.id, day, time, visit_type
        )
        self.next_number += 1
        self.appointments.append(appointment)
        return (
            f"Booked {appointment.id}: {patient.name} with {doctor.name} on {day.isoformat()} "
            f"at {time} ({visit_type})."
        )

    @tool(description="A patient's upcoming appointments with their ids.")
    def list_appointments(self, patient_id: _PatientId) -> str:
        found = [
            {
                "appointment_id": a.id,
                "doctor": _DOCTOR_NAMES[a.doctor_id],
                "day": a.day.isoformat(),
                "time": a.time,
                "visit_type": a.visit_type,
            }
            for a in self.appointments
            if a.patient_id == patient_id.strip().upper()
        ]
        return json.dumps(found) if found else f"No upcoming appointments for {patient_id}."

    @tool(description="Cancel an appointment by its id, e.g. A-501.")
    def cancel_appointment(
        self, appointment_id: Annotated[str, Param("The appointment id, e.g. A-501")]
    ) -> str:
        key = appointment_id.strip().upper()
        for a in self.appointments:
            if a.id == key:
                self.appointments.remove(a)
                return f"Cancelled {a.id} ({a.day.isoformat()} at {a.time})."
        return f"No appointment {appointment_id}."

    @tool(description="The price of a type of visit, in EUR, before insurance.")
    def visit_price(self, visit_type: VisitType) -> str:
        return f"{visit_type.capitalize()}: {PRICES[visit_type]:.2f} EUR before insurance."

    @tool(
        description=(
            "What the patient pays themselves for a visit: the price less the share their "
            "insurance covers."
        )
    )
    def patient_share(
        self,
        price: Annotated[float, Param("The visit's price in EUR"), Field(ge=0)],
        coverage_percent: Annotated[
            float, Param("The insurance's share in percent, 0 to 100"), Field(ge=0, le=100)
        ],
    ) -> str:
        return f"The patient pays {price * (100 - coverage_percent) / 100:.2f} EUR."

    @tool(description="Send a patient a message by e-mail or text message (sms).")
    def send_message(
        self,
        to: Annotated[str, Param("An e-mail address, or a phone number for sms")],
        text: str,
        subject: str | None = None,
        channel: Channel = "email",
    ) -> str:
        if (channel == "email") != ("@" in to):
            wanted = "an e-mail address" if channel == "email" else "a phone number"
            return f"For {channel}, 'to' must be {wanted}; nothing was sent."
        self.messages.append((to, text, subject, channel))
        return f"Sent M-{len(self.messages)} by {channel} to {to}."


def build() -> list[Any]:
    """The ten tools over a fresh clinic (five patients, four doctors, four appointments)."""
    return tool_callbacks(Clinic())
