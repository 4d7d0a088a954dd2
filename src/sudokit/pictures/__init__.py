"""Pictures of puzzles: PDF booklets (:mod:`.pdf`), drawn steps (:mod:`.steps`)
and the explanation page (:mod:`.html`).

:mod:`.pdf` needs the ``pdf`` extra (``pip install 'sudokit[pdf]'``: fpdf2 to
write PDF, pypdfium2 to turn pages into PNG); the SVG and HTML pictures need
nothing beyond sudokit.
"""
