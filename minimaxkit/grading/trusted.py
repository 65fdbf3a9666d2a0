"""Where ``nbgrader_config.py`` files name the preprocessors (kept for configs written
before they moved to :mod:`minimaxkit.grading.autograde.preprocessors`)."""

from .autograde.preprocessors import SandboxedExecute, TrustedGrade

__all__ = ["SandboxedExecute", "TrustedGrade"]
