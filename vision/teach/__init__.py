"""Teaching the referee a table's own pack: captures (from a camera or a folder of photos), their
checks, the views made of them, and the learning of a deck profile (:mod:`vision.recognize.deck`).
Leans on :mod:`vision.recognize` only; the page and the command line drive it."""
