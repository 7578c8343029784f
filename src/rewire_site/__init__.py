"""Rewire: an evidence-record catalogue for genomic foundation models and its static site.

Pipeline: load -> validate -> link -> derive -> render -> write.
"""

__version__ = "0.1.0"
