//! tribo_rapier: see the crate README (work in progress).
