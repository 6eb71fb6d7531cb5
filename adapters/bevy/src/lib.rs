//! bevy_tribo (work in progress).
