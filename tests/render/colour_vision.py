"""How a colour looks to a colour-blind player, for tests of what an image says besides
colour: Machado, Oliveira and Fernandes (2009) at full severity (protanopia, deuteranopia,
tritanopia), applied in linear RGB, WCAG 2 contrast between two colours, and CIEDE2000
colour difference."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

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


def _lab(colour: RGB) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(v) for v in colour)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(a: RGB, b: RGB) -> float:
    """The CIEDE2000 colour difference between two colours: about 1 is the least an eye tells
    apart side by side, 10 or more reads as a different colour at a glance."""
    l1, a1, b1 = _lab(a)
    l2, a2, b2 = _lab(b)
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    h_mean = h1 + h2
    if c1 * c2:
        if abs(h1 - h2) <= 180:
            h_mean = (h1 + h2) / 2
        else:
            h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * c_mean
    sh = 1 + 0.015 * c_mean * t
    rt = (
        -2
        * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
    )
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh)
    )


def closest_seen(colours: Sequence[RGB]) -> float:
    """The smallest CIEDE2000 difference between two of ``colours`` as a protanope, a
    deuteranope or a tritanope sees them."""
    return min(
        ciede2000(seen_by(a, kind), seen_by(b, kind))
        for kind in KINDS
        for a, b in itertools.combinations(colours, 2)
    )
