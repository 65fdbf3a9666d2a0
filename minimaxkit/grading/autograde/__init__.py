"""nbgrader's side of grading: the preprocessors that run a notebook in the sandboxed kernel
and grade it outside (``nbgrader_config.py`` names them), the trusted grading they start, and
the kernel clients with limits. It knows the notebook API and assignment 5's play, not how
searches are judged."""
