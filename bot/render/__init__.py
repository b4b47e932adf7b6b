"""Table, hand and score images for Junction's games, drawn with Pillow.

Renderers see only the engine's *views* (the public table, or one seat's private view), never a
game state, so an image can never leak a hidden card, and the same view always gives the same
picture. Renderers may also import ``bot.engine.words`` (pure wording, no state), so they count
things as the captions do. Nothing here imports discord or a database: the cogs turn the
returned PNG bytes into attachments.
"""
