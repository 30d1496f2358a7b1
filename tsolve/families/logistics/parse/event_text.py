"""What one event sentence says, whichever reader read it."""

from __future__ import annotations

from typing import NamedTuple

from tsolve.families.logistics.model import Kind, VehicleType


class EventText(NamedTuple):
    """The parts of one event sentence (or of an event phrase in a question)."""

    kind: Kind
    vehicle: str
    vehicle_type: VehicleType
    package: str | None
    location: str | None
    origin: str | None
    destination: str | None
    clocks: tuple[int, ...]
    duration: int | None

    @property
    def key(self) -> tuple[str, str, str | None, str | None, str | None, str | None]:
        return (self.kind, self.vehicle, self.package, self.location, self.origin, self.destination)
