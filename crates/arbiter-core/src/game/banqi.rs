//! Banqi (暗棋).
