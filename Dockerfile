# Junction in a container: `docker build -t junction .` then
# `docker run -d --init -e DISCORD_TOKEN=... -v junction-data:/data junction`. --init puts Docker's
# init first, so a `docker stop` in the bot's first seconds ends it at once (README.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    JUNCTION_DB=sqlite:////data/junction.db

WORKDIR /app

# Dependencies first, in their own layer, so code changes do not reinstall them.
COPY pyproject.toml README.md constraints.txt ./
RUN mkdir -p bot cogs && touch bot/__init__.py cogs/__init__.py \
    && pip install -c constraints.txt '.[postgres]' && pip uninstall -y junction-bot

COPY bot ./bot
COPY cogs ./cogs
COPY images ./images
COPY docs/rules ./docs/rules
# Run from the source tree (not site-packages) so the renderers find images/fonts beside bot/.

# `junction …` works in the container as it does outside (`docker exec CONTAINER junction
# forget-member USER_ID --yes`): the package itself is not installed, so a small script runs
# the source tree, as CMD does.
ENV PYTHONPATH=/app
RUN printf '#!/bin/sh\nexec python -m bot "$@"\n' > /usr/local/bin/junction \
    && chmod 755 /usr/local/bin/junction

RUN useradd --create-home --uid 10001 junction && mkdir -p /data && chown junction /data
USER junction
VOLUME ["/data"]

CMD ["python", "-m", "bot", "run"]
