//! Team rankings inside an individual section (filled in by a later slice).
