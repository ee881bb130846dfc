//! The well-known files besides robots.txt that say what machines may do or read: the
//! llms.txt proposal's `/llms.txt` ([`llms`]). Pure parsers: bytes in, facts out.

pub mod llms;
