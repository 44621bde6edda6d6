//! What the binaries share: reading files with errors that name them, the option groups, the
//! limits' messages, the progress reporter, the exit codes. Each binary includes this module,
//! so the library itself never prints or exits.

// Each binary uses only part of what they share.
#![allow(dead_code)]

pub mod cli;
pub mod progress;
