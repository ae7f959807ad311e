//! Occupancy calculators and cooperative launches.
