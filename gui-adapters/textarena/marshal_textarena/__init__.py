"""Marshal as a TextArena Stratego agent: `MarshalAgent(observation) -> move text`."""

from .agent import AdapterError, MarshalAgent
from .board import Board, Piece, ta_to_square, square_to_ta

__all__ = ["AdapterError", "MarshalAgent", "Board", "Piece", "ta_to_square", "square_to_ta"]
