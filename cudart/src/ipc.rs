//! Inter-process sharing of memory and events.
