"""The version of kg (a leaf: the package, the build metadata and the changelog read it)."""

__version__ = "0.1.0"
