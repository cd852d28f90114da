//! Ratings and confidence statistics (being written).
