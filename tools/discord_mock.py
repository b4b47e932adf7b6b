"""Draw a Discord-like picture of a real Junction table message for the README.

It plays a real game through the seam (stacked by a seed), then lays out what Discord shows:
the bot's name, the caption text, the table image and the buttons. Run from the repo root:
``.venv/bin/python tools/discord_mock.py docs/discord-message.png``.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

from bot.games import DEFAULT_GAME
from bot.render.common import font
from bot.store.base import SeatRecord
from bot.store.sqlite import SqliteStore
from bot.tables import Tables
from cogs.ui import table_text

BACKGROUND = (49, 51, 56)  # Discord's dark theme
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
BLURPLE = (88, 101, 242)


async def _table(seed: int) -> tuple[bytes, str]:
    from bot.games import bundle

    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "mock.db")
        await store.open()
        tables = Tables(store)
        await tables.start(
            channel_id=1,
            guild_id=1,
            game_key=DEFAULT_GAME,
            seats=[
                SeatRecord(0, "Ann", user_id=7),
                SeatRecord(1, "Computer (normal)", policy="normal"),
            ],
            seed=seed,
        )
        update = await tables.table(1)
        for _ in range(14):
            _, moves = tables.hand(update.game, 7)
            plays = [m for m in moves if m.notation.startswith("play")] or moves
            update = await tables.move(channel_id=1, user_id=7, action=plays[0].notation)
            if update.outcome is not None:
                break
        png = bundle(update.game.game_key).presenter.table_png(update.public)
        text = table_text(update).replace("<@7>", "@Ann")
        await store.close()
    return png, text


def draw(png: bytes, text: str) -> Image.Image:
    table = Image.open(io.BytesIO(png)).convert("RGB")
    table = table.resize((table.width * 2 // 3, table.height * 2 // 3))
    lines = text.replace("**", "").splitlines()
    width = table.width + 110
    height = 70 + 26 * len(lines) + table.height + 70
    image = Image.new("RGB", (width, height), BACKGROUND)
    d = ImageDraw.Draw(image)
    d.ellipse((18, 18, 62, 62), fill=(250, 190, 60))
    d.text((40, 40), "J", font=font(24, "bold"), fill=BACKGROUND, anchor="mm")
    d.text((80, 18), "Junction", font=font(18, "bold"), fill=(255, 255, 255))
    d.rounded_rectangle((172, 20, 212, 40), 4, fill=BLURPLE)
    d.text((192, 30), "APP", font=font(12, "bold"), fill=(255, 255, 255), anchor="mm")
    d.text((222, 22), "Today at 21:07", font=font(13), fill=MUTED)
    y = 48
    for line in lines:
        d.text((80, y), line, font=font(17), fill=TEXT)
        y += 26
    image.paste(table, (80, y + 6))
    y += table.height + 18
    d.rounded_rectangle((80, y, 220, y + 38), 4, fill=BLURPLE)
    label = "My hand"  # DejaVu has no playing-card emoji, so the button shows its text only
    d.text((150, y + 19), label, font=font(16, "bold"), fill=(255, 255, 255), anchor="mm")
    return image


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/discord-message.png")
    png, text = asyncio.run(_table(seed=11))
    draw(png, text).save(out)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
