//! The well-known files besides robots.txt that say what machines may do or read: the
//! llms.txt proposal's `/llms.txt` ([`llms`]) and the TDM Reservation Protocol's
//! `/.well-known/tdmrep.json` ([`tdmrep`]). Pure parsers: bytes in, facts out.

pub mod llms;
pub mod tdmrep;
