"""The course as a static website (``make site``, docs/site.md): every lecture executed
headless with every step and compare widget's frames in its page, the widget front ends
served from the site itself, an index page. Nothing on a page loads from another host.

:mod:`.execute` runs a lecture and keeps every widget's frames; :mod:`.static` readies the
executed notebook for a page without a kernel; :mod:`.assets` copies the pinned npm files;
:mod:`.pages` renders the pages from jinja2 templates; :mod:`.build` puts it together
(``python -m minimaxkit.site``).
"""
