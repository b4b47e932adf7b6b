"""Table, hand and score images for Junction's games, drawn with Pillow.

Renderers see only the engine's *views* (the public table, or one seat's private view), never a
game state, so an image can never leak a hidden card, and the same view always gives the same
picture. Renderers may also import ``bot.engine.words`` (pure wording, no state), so they count
things as the captions do, and ``bot.seats``, so they shorten a computer's name as the rest of
the bot names it. ``pool`` is the process pool they draw in (the computers think in another
of its kind). Nothing here imports discord or a database: the cogs turn the returned PNG bytes
into attachments.
"""
