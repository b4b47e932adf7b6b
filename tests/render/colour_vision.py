"""How a colour looks to a colour-blind player, for tests of what an image says besides
colour: Machado, Oliveira and Fernandes (2009) at full severity (protanopia, deuteranopia,
tritanopia), applied in linear RGB, and WCAG 2 contrast between two colours."""

from __future__ import annotations

RGB = tuple[int, int, int]

KINDS = ("protanopia", "deuteranopia", "tritanopia")

_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(value: int) -> float:
    v = value / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> int:
    v = min(1.0, max(0.0, value))
    return round(255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055))


def seen_by(colour: RGB, kind: str) -> RGB:
    """``colour`` as a player with ``kind`` (one of ``KINDS``) sees it."""
    lin = [_linear(v) for v in colour]
    rows = _MATRICES[kind]
    r, g, b = (_encoded(sum(m * c for m, c in zip(row, lin, strict=True))) for row in rows)
    return (r, g, b)


def luminance(colour: RGB) -> float:
    """WCAG 2's relative luminance."""
    r, g, b = (_linear(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2's contrast ratio, 1 to 21 (3 for large text, 4.5 for small text)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def worst_contrast(ink: RGB, ground: RGB) -> float:
    """The lowest contrast of ``ink`` on ``ground``, to normal sight and to each of ``KINDS``."""
    return min(
        [contrast(ink, ground)] + [contrast(seen_by(ink, k), seen_by(ground, k)) for k in KINDS]
    )
