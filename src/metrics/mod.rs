//! Metrics of the five methods, grouped and with intervals.
