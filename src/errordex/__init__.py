"""errordex: an encyclopedia of the errors a source repository can throw."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("errordex")
except PackageNotFoundError:  # running from a checkout without install
    __version__ = "0.0.0"

__all__ = ["__version__"]
