"""How this process shows what happens (``Delivery``): alone, or as one of several."""

from .alone import Alone
from .base import Delivery, Following
from .poster import Poster
from .shared import Shared

__all__ = ["Alone", "Delivery", "Following", "Poster", "Shared"]
