//! Google's robots_test.cc (google/robotstxt), ported as data: every EXPECT of the matcher tests
//! becomes one (agent, url, allowed) check, every parse-statistics test one count check. Names
//! keep Google's test names (`google_` + the test), so a failure points to the original case.
//! Then RFC 9309 examples and our own lenient cases, named by source.

use repcensus::{allowed_by_robots, Key, RobotsTxt};

struct Case {
    name: &'static str,
    robots: &'static [u8],
    checks: &'static [(&'static str, &'static str, bool)],
}

const A: bool = true;
const D: bool = false;

const CASES: &[Case] = &[
    Case {
        name: "google_system_test",
        robots: b"user-agent: FooBot\ndisallow: /\n",
        checks: &[("", "", A), ("FooBot", "", D)],
    },
    Case {
        name: "google_system_test_empty",
        robots: b"",
        checks: &[("FooBot", "", A), ("", "", A)],
    },
    Case {
        name: "google_line_syntax_line_correct",
        robots: b"user-agent: FooBot\ndisallow: /\n",
        checks: &[("FooBot", "http://foo.bar/x/y", D)],
    },
    Case {
        name: "google_line_syntax_line_incorrect",
        robots: b"foo: FooBot\nbar: /\n",
        checks: &[("FooBot", "http://foo.bar/x/y", A)],
    },
    Case {
        name: "google_line_syntax_line_incorrect_accepted",
        robots: b"user-agent FooBot\ndisallow /\n",
        checks: &[("FooBot", "http://foo.bar/x/y", D)],
    },
    Case {
        name: "google_line_syntax_groups",
        robots: b"allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n",
        checks: &[
            ("FooBot", "http://foo.bar/x/b", A),
            ("FooBot", "http://foo.bar/z/d", A),
            ("FooBot", "http://foo.bar/y/c", D),
            ("BarBot", "http://foo.bar/y/c", A),
            ("BarBot", "http://foo.bar/w/a", A),
            ("BarBot", "http://foo.bar/z/d", D),
            ("BazBot", "http://foo.bar/z/d", A),
            ("FooBot", "http://foo.bar/foo/bar/", D),
            ("BarBot", "http://foo.bar/foo/bar/", D),
            ("BazBot", "http://foo.bar/foo/bar/", D),
        ],
    },
    Case {
        name: "google_line_syntax_groups_other_rules_sitemap",
        robots: b"User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
        checks: &[("FooBot", "http://foo.bar/", D), ("BarBot", "http://foo.bar/", D)],
    },
    Case {
        name: "google_line_syntax_groups_other_rules_unknown",
        robots: b"User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
        checks: &[("FooBot", "http://foo.bar/", D), ("BarBot", "http://foo.bar/", D)],
    },
    Case {
        name: "google_rep_line_names_case_insensitive_upper",
        robots: b"USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
        checks: &[("FooBot", "http://foo.bar/x/y", A), ("FooBot", "http://foo.bar/a/b", D)],
    },
    Case {
        name: "google_rep_line_names_case_insensitive_lower",
        robots: b"user-agent: FooBot\nallow: /x/\ndisallow: /\n",
        checks: &[("FooBot", "http://foo.bar/x/y", A), ("FooBot", "http://foo.bar/a/b", D)],
    },
    Case {
        name: "google_rep_line_names_case_insensitive_camel",
        robots: b"uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
        checks: &[("FooBot", "http://foo.bar/x/y", A), ("FooBot", "http://foo.bar/a/b", D)],
    },
    Case {
        name: "google_user_agent_value_case_insensitive_upper",
        robots: b"User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n",
        checks: &[
            ("Foo", "http://foo.bar/x/y", A),
            ("Foo", "http://foo.bar/a/b", D),
            ("foo", "http://foo.bar/x/y", A),
            ("foo", "http://foo.bar/a/b", D),
        ],
    },
    Case {
        name: "google_user_agent_value_case_insensitive_lower",
        robots: b"User-Agent: foo bar\nAllow: /x/\nDisallow: /\n",
        checks: &[
            ("Foo", "http://foo.bar/x/y", A),
            ("Foo", "http://foo.bar/a/b", D),
            ("foo", "http://foo.bar/x/y", A),
            ("foo", "http://foo.bar/a/b", D),
        ],
    },
    Case {
        name: "google_user_agent_value_case_insensitive_camel",
        robots: b"User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n",
        checks: &[
            ("Foo", "http://foo.bar/x/y", A),
            ("Foo", "http://foo.bar/a/b", D),
            ("foo", "http://foo.bar/x/y", A),
            ("foo", "http://foo.bar/a/b", D),
        ],
    },
    Case {
        name: "google_accept_user_agent_up_to_first_space",
        robots: b"User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
        checks: &[("Foo", "http://foo.bar/x/y", A), ("Foo Bar", "http://foo.bar/x/y", D)],
    },
    Case {
        name: "google_global_groups_secondary_empty",
        robots: b"",
        checks: &[("FooBot", "http://foo.bar/x/y", A)],
    },
    Case {
        name: "google_global_groups_secondary_global",
        robots: b"user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n",
        checks: &[("FooBot", "http://foo.bar/x/y", D), ("BarBot", "http://foo.bar/x/y", A)],
    },
    Case {
        name: "google_global_groups_secondary_only_specific",
        robots: b"user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n",
        checks: &[("QuxBot", "http://foo.bar/x/y", A)],
    },
    Case {
        name: "google_allow_disallow_value_case_sensitive",
        robots: b"user-agent: FooBot\ndisallow: /x/\n",
        checks: &[("FooBot", "http://foo.bar/x/y", D)],
    },
    Case {
        name: "google_allow_disallow_value_case_sensitive_upper",
        robots: b"user-agent: FooBot\ndisallow: /X/\n",
        checks: &[("FooBot", "http://foo.bar/x/y", A)],
    },
    Case {
        name: "google_longest_match_1",
        robots: b"user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n",
        checks: &[("FooBot", "http://foo.bar/x/page.html", D)],
    },
    Case {
        name: "google_longest_match_2",
        robots: b"user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n",
        checks: &[("FooBot", "http://foo.bar/x/page.html", A), ("FooBot", "http://foo.bar/x/", D)],
    },
    Case {
        name: "google_longest_match_empty_tie",
        robots: b"user-agent: FooBot\ndisallow: \nallow: \n",
        checks: &[("FooBot", "http://foo.bar/x/page.html", A)],
    },
    Case {
        name: "google_longest_match_root_tie",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /\n",
        checks: &[("FooBot", "http://foo.bar/x/page.html", A)],
    },
    Case {
        name: "google_longest_match_dir",
        robots: b"user-agent: FooBot\ndisallow: /x\nallow: /x/\n",
        checks: &[("FooBot", "http://foo.bar/x", D), ("FooBot", "http://foo.bar/x/", A)],
    },
    Case {
        name: "google_longest_match_same_tie",
        robots: b"user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n",
        checks: &[("FooBot", "http://foo.bar/x/page.html", A)],
    },
    Case {
        name: "google_longest_match_wildcard",
        robots: b"user-agent: FooBot\nallow: /page\ndisallow: /*.html\n",
        checks: &[("FooBot", "http://foo.bar/page.html", D), ("FooBot", "http://foo.bar/page", A)],
    },
    Case {
        name: "google_longest_match_wildcard_2",
        robots: b"user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n",
        checks: &[("FooBot", "http://foo.bar/x/page.html", A), ("FooBot", "http://foo.bar/x/y.html", D)],
    },
    Case {
        name: "google_longest_match_specific_group",
        robots: b"User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n",
        checks: &[("FooBot", "http://foo.bar/x/page", A), ("FooBot", "http://foo.bar/y/page", D)],
    },
    Case {
        name: "google_encoding_query_unencoded",
        robots: b"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
        checks: &[("FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", A)],
    },
    Case {
        name: "google_encoding_3_byte_character",
        robots: "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n".as_bytes(),
        checks: &[("FooBot", "http://foo.bar/foo/bar/%E3%83%84", A), ("FooBot", "http://foo.bar/foo/bar/ツ", D)],
    },
    Case {
        name: "google_encoding_percent_encoded_3_byte_character",
        robots: b"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n",
        checks: &[("FooBot", "http://foo.bar/foo/bar/%E3%83%84", A), ("FooBot", "http://foo.bar/foo/bar/ツ", D)],
    },
    Case {
        name: "google_encoding_percent_encoded_unreserved",
        robots: b"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
        checks: &[("FooBot", "http://foo.bar/foo/bar/baz", D), ("FooBot", "http://foo.bar/foo/bar/%62%61%7A", A)],
    },
    Case {
        name: "google_special_characters_wildcard",
        robots: b"User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n",
        checks: &[
            ("FooBot", "http://foo.bar/foo/bar/quz", D),
            ("FooBot", "http://foo.bar/foo/quz", A),
            ("FooBot", "http://foo.bar/foo//quz", A),
            ("FooBot", "http://foo.bar/foo/bax/quz", A),
        ],
    },
    Case {
        name: "google_special_characters_end_anchor",
        robots: b"User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n",
        checks: &[
            ("FooBot", "http://foo.bar/foo/bar", D),
            ("FooBot", "http://foo.bar/foo/bar/qux", A),
            ("FooBot", "http://foo.bar/foo/bar/", A),
            ("FooBot", "http://foo.bar/foo/bar/baz", A),
        ],
    },
    Case {
        name: "google_special_characters_comment",
        robots: b"User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
        checks: &[("FooBot", "http://foo.bar/foo/bar", A), ("FooBot", "http://foo.bar/foo/quz", D)],
    },
    Case {
        name: "google_index_html_is_directory",
        robots: b"User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n",
        checks: &[
            ("foobot", "http://foo.com/allowed-slash/", A),
            ("foobot", "http://foo.com/allowed-slash/index.htm", D),
            ("foobot", "http://foo.com/allowed-slash/index.html", A),
            ("foobot", "http://foo.com/anyother-url", D),
        ],
    },
    Case {
        name: "google_documentation_checks_fish",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish\n",
        checks: &[
            ("FooBot", "http://foo.bar/bar", D),
            ("FooBot", "http://foo.bar/fish", A),
            ("FooBot", "http://foo.bar/fish.html", A),
            ("FooBot", "http://foo.bar/fish/salmon.html", A),
            ("FooBot", "http://foo.bar/fishheads", A),
            ("FooBot", "http://foo.bar/fishheads/yummy.html", A),
            ("FooBot", "http://foo.bar/fish.html?id=anything", A),
            ("FooBot", "http://foo.bar/Fish.asp", D),
            ("FooBot", "http://foo.bar/catfish", D),
            ("FooBot", "http://foo.bar/?id=fish", D),
        ],
    },
    Case {
        name: "google_documentation_checks_fish_star",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish*\n",
        checks: &[
            ("FooBot", "http://foo.bar/bar", D),
            ("FooBot", "http://foo.bar/fish", A),
            ("FooBot", "http://foo.bar/fish.html", A),
            ("FooBot", "http://foo.bar/fish/salmon.html", A),
            ("FooBot", "http://foo.bar/fishheads", A),
            ("FooBot", "http://foo.bar/fishheads/yummy.html", A),
            ("FooBot", "http://foo.bar/fish.html?id=anything", A),
            ("FooBot", "http://foo.bar/Fish.bar", D),
            ("FooBot", "http://foo.bar/catfish", D),
            ("FooBot", "http://foo.bar/?id=fish", D),
        ],
    },
    Case {
        name: "google_documentation_checks_fish_slash",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish/\n",
        checks: &[
            ("FooBot", "http://foo.bar/bar", D),
            ("FooBot", "http://foo.bar/fish/", A),
            ("FooBot", "http://foo.bar/fish/salmon", A),
            ("FooBot", "http://foo.bar/fish/?salmon", A),
            ("FooBot", "http://foo.bar/fish/salmon.html", A),
            ("FooBot", "http://foo.bar/fish/?id=anything", A),
            ("FooBot", "http://foo.bar/fish", D),
            ("FooBot", "http://foo.bar/fish.html", D),
            ("FooBot", "http://foo.bar/Fish/Salmon.html", D),
        ],
    },
    Case {
        name: "google_documentation_checks_php",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /*.php\n",
        checks: &[
            ("FooBot", "http://foo.bar/bar", D),
            ("FooBot", "http://foo.bar/filename.php", A),
            ("FooBot", "http://foo.bar/folder/filename.php", A),
            ("FooBot", "http://foo.bar/folder/filename.php?parameters", A),
            ("FooBot", "http://foo.bar//folder/any.php.file.html", A),
            ("FooBot", "http://foo.bar/filename.php/", A),
            ("FooBot", "http://foo.bar/index?f=filename.php/", A),
            ("FooBot", "http://foo.bar/php/", D),
            ("FooBot", "http://foo.bar/index?php", D),
            ("FooBot", "http://foo.bar/windows.PHP", D),
        ],
    },
    Case {
        name: "google_documentation_checks_php_end",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /*.php$\n",
        checks: &[
            ("FooBot", "http://foo.bar/bar", D),
            ("FooBot", "http://foo.bar/filename.php", A),
            ("FooBot", "http://foo.bar/folder/filename.php", A),
            ("FooBot", "http://foo.bar/filename.php?parameters", D),
            ("FooBot", "http://foo.bar/filename.php/", D),
            ("FooBot", "http://foo.bar/filename.php5", D),
            ("FooBot", "http://foo.bar/php/", D),
            ("FooBot", "http://foo.bar/filename?php", D),
            ("FooBot", "http://foo.bar/aaaphpaaa", D),
            ("FooBot", "http://foo.bar//windows.PHP", D),
        ],
    },
    Case {
        name: "google_documentation_checks_fish_star_php",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n",
        checks: &[
            ("FooBot", "http://foo.bar/bar", D),
            ("FooBot", "http://foo.bar/fish.php", A),
            ("FooBot", "http://foo.bar/fishheads/catfish.php?parameters", A),
            ("FooBot", "http://foo.bar/Fish.PHP", D),
        ],
    },
    Case {
        name: "google_documentation_checks_precedence_p",
        robots: b"user-agent: FooBot\nallow: /p\ndisallow: /\n",
        checks: &[("FooBot", "http://example.com/page", A)],
    },
    Case {
        name: "google_documentation_checks_precedence_folder",
        robots: b"user-agent: FooBot\nallow: /folder\ndisallow: /folder\n",
        checks: &[("FooBot", "http://example.com/folder/page", A)],
    },
    Case {
        name: "google_documentation_checks_precedence_htm",
        robots: b"user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n",
        checks: &[("FooBot", "http://example.com/page.htm", D)],
    },
    Case {
        name: "google_documentation_checks_precedence_root_anchor",
        robots: b"user-agent: FooBot\nallow: /$\ndisallow: /\n",
        checks: &[("FooBot", "http://example.com/", A), ("FooBot", "http://example.com/page.html", D)],
    },
    // RFC 9309 §5 example, checked against its text.
    Case {
        name: "rfc9309_example",
        robots: b"User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\nUser-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\nUser-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n",
        checks: &[
            ("foobot", "http://www.example.com/example/page.html", A),
            ("foobot", "http://www.example.com/example/allowed.gif", A),
            ("foobot", "http://www.example.com/other", D),
            ("barbot", "http://www.example.com/example/page.html", D),
            ("bazbot", "http://www.example.com/example/page.html", D),
            ("barbot", "http://www.example.com/example/other.gif", A),
            ("quxbot", "http://www.example.com/example/", A),
            ("otherbot", "http://www.example.com/example/x", D),
            ("otherbot", "http://www.example.com/publications/x", A),
            // `*.gif$` matches any path ending in .gif.
            ("otherbot", "http://www.example.com/a.gif", D),
        ],
    },
    Case {
        name: "rfc9309_robots_txt_not_special",
        robots: b"User-agent: *\nDisallow: /\n",
        checks: &[("FooBot", "http://example.com/robots.txt", D)],
    },
    Case {
        name: "rfc9309_merged_groups",
        robots: b"User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: foobot\nDisallow: /b\n",
        checks: &[
            ("FooBot", "http://example.com/a", D),
            ("FooBot", "http://example.com/b", D),
            ("FooBot", "http://example.com/c", A),
        ],
    },
    Case {
        name: "lenient_crawl_delay_does_not_close_group",
        robots: b"User-agent: FooBot\nCrawl-delay: 5\nUser-agent: BarBot\nDisallow: /\n",
        checks: &[("FooBot", "http://example.com/x", D), ("BarBot", "http://example.com/x", D)],
    },
    Case {
        name: "lenient_rules_before_any_user_agent_ignored",
        robots: b"Disallow: /\nUser-agent: FooBot\nDisallow: /x\n",
        checks: &[("FooBot", "http://example.com/y", A), ("BarBot", "http://example.com/y", A)],
    },
    Case {
        name: "lenient_disallow_typos",
        robots: b"User-agent: a\nDisalow: /1\nDissallow: /2\nDissalow: /3\nDiasllow: /4\nDisallaw: /5\nDisallowed: /6\n",
        checks: &[
            ("a", "http://e.com/1", D),
            ("a", "http://e.com/2", D),
            ("a", "http://e.com/3", D),
            ("a", "http://e.com/4", D),
            ("a", "http://e.com/5", D),
            ("a", "http://e.com/6", D),
            ("a", "http://e.com/7", A),
        ],
    },
    Case {
        name: "lenient_user_agent_typos",
        robots: b"useragent: a\nDisallow: /1\nuser agent: b\nDisallow: /2\nUser-agents: c\nDisallow: /3\n",
        checks: &[("a", "http://e.com/1", D), ("b", "http://e.com/2", D), ("c", "http://e.com/3", D)],
    },
    Case {
        name: "lenient_product_token_version_stripped",
        robots: b"User-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\nDisallow: /\n",
        checks: &[("googlebot", "http://e.com/x", D), ("googlebot-image", "http://e.com/x", A)],
    },
    Case {
        name: "lenient_star_with_suffix_is_global",
        robots: b"User-agent: * # everyone\nDisallow: /x\nUser-agent: *bot\nDisallow: /y\n",
        checks: &[("a", "http://e.com/x", D), ("a", "http://e.com/y", A)],
    },
    Case {
        name: "lenient_nul_ends_line",
        robots: b"User-agent: a\nDisallow: /x\0/y\n",
        checks: &[("a", "http://e.com/x", D), ("a", "http://e.com/z", A)],
    },
    Case {
        name: "lenient_partial_bom",
        robots: b"\xEF\xBBUser-agent: a\nDisallow: /\n",
        checks: &[("a", "http://e.com/x", D)],
    },
    Case {
        name: "lenient_broken_bom_first_line_lost",
        robots: b"\xEF\x11\xBFUser-agent: a\nDisallow: /\n",
        checks: &[("a", "http://e.com/x", A)],
    },
    Case {
        name: "lenient_dollar_only_at_end",
        robots: b"User-agent: a\nDisallow: /x$y\nDisallow: /z$\n",
        checks: &[
            ("a", "http://e.com/x$y", D),
            ("a", "http://e.com/xy", A),
            ("a", "http://e.com/z", D),
            ("a", "http://e.com/z/", A),
        ],
    },
    Case {
        name: "lenient_specific_group_without_rules_allows_all",
        robots: b"User-agent: *\nDisallow: /\nUser-agent: a\nDisallow:\n",
        checks: &[("a", "http://e.com/x", A), ("b", "http://e.com/x", D)],
    },
    Case {
        name: "lenient_cr_only_line_endings",
        robots: b"User-agent: a\rDisallow: /x\r",
        checks: &[("a", "http://e.com/x", D)],
    },
    Case {
        name: "lenient_colon_in_whitespace_line",
        // The first colon separates: the key is "Disallow /foo", read as disallow by prefix,
        // with the pattern "bar", which matches no path (paths start with "/").
        robots: b"User-agent: a\nDisallow /foo:bar\nDisallow: /\nAllow: /foo\n",
        checks: &[("a", "http://e.com/foo", A), ("a", "http://e.com/bar", D)],
    },
];

#[test]
fn google_and_rfc_cases() {
    let mut failures = Vec::new();
    let mut n = 0;
    for case in CASES {
        for &(agent, url, want) in case.checks {
            n += 1;
            let got = allowed_by_robots(case.robots, agent, url);
            if got != want {
                failures.push(format!(
                    "{}: agent {agent:?} url {url:?}: want {want}, got {got}",
                    case.name
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(n > 150, "{n} checks");
}

/// Google's `GoogleOnly_LineTooLong`.
#[test]
fn google_line_too_long() {
    const MAX: usize = 2083 * 8;
    let (allow, disallow) = ("allow: ", "disallow: ");
    let mut robots = String::from("user-agent: FooBot\n");
    let mut longline = String::from("/x/");
    let max_length = MAX - longline.len() - disallow.len() + 1;
    while longline.len() < max_length {
        longline.push('a');
    }
    robots.push_str(&format!("{disallow}{longline}/qux\n"));
    assert!(allowed_by_robots(
        robots.as_bytes(),
        "FooBot",
        "http://foo.bar/fux"
    ));
    assert!(!allowed_by_robots(
        robots.as_bytes(),
        "FooBot",
        &format!("http://foo.bar{longline}/fux")
    ));

    let mut robots = String::from("user-agent: FooBot\ndisallow: /\n");
    let (mut a, mut b) = (String::from("/x/"), String::from("/x/"));
    let max_length = MAX - a.len() - allow.len() + 1;
    while a.len() < max_length {
        a.push('a');
        b.push('b');
    }
    robots.push_str(&format!("{allow}{a}/qux\n{allow}{b}/qux\n"));
    assert!(!allowed_by_robots(
        robots.as_bytes(),
        "FooBot",
        "http://foo.bar/"
    ));
    assert!(allowed_by_robots(
        robots.as_bytes(),
        "FooBot",
        &format!("http://foo.bar{a}/qux")
    ));
    assert!(allowed_by_robots(
        robots.as_bytes(),
        "FooBot",
        &format!("http://foo.bar{b}/fux")
    ));
}

/// Google's `RobotsStatsReporter`: lines Google's parser reports as directives (user-agent,
/// allow, disallow, sitemap) and as unknown (any other key), and the last line number seen.
fn google_stats(body: &[u8]) -> (usize, usize, u32) {
    let r = RobotsTxt::parse(body);
    let mut valid = 0;
    let mut unknown = 0;
    let mut last = 0;
    for l in &r.lines {
        match l.key {
            Key::Blank | Key::Invalid => continue,
            Key::UserAgent | Key::Purpose | Key::Allow | Key::Disallow | Key::Sitemap => valid += 1,
            _ => unknown += 1,
        }
        last = l.number;
    }
    (valid, unknown, last)
}

#[test]
fn google_lines_numbers_are_counted_correctly() {
    for body in [
        &b"User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n"[..],
        b"User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
        b"User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
        b"User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
        b"User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
    ] {
        let (valid, _, last) = google_stats(body);
        assert_eq!((valid, last), (4, 6), "{:?}", String::from_utf8_lossy(body));
    }
}

#[test]
fn google_utf8_byte_order_mark_is_skipped() {
    assert_eq!(
        google_stats(b"\xEF\xBB\xBFUser-Agent: foo\nAllow: /AnyValue\n").0,
        2
    );
    assert_eq!(
        google_stats(b"\xEF\xBBUser-Agent: foo\nAllow: /AnyValue\n").0,
        2
    );
    assert_eq!(
        google_stats(b"\xEFUser-Agent: foo\nAllow: /AnyValue\n").0,
        2
    );
    let (v, u, _) = google_stats(b"\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n");
    assert_eq!((v, u), (1, 1));
    let (v, u, _) = google_stats(b"User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n");
    assert_eq!((v, u), (1, 1));
}

#[test]
fn google_non_standard_line_example_sitemap() {
    let loc = "http://foo.bar/sitemap.xml";
    for body in [
        format!("User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nSitemap: {loc}\n"),
        format!("Sitemap: {loc}\nUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"),
    ] {
        let r = RobotsTxt::parse(body.as_bytes());
        let sitemaps: Vec<_> = r
            .lines
            .iter()
            .filter(|l| l.key == Key::Sitemap)
            .map(|l| l.value(r.body))
            .collect();
        assert_eq!(sitemaps, vec![loc.as_bytes()]);
    }
}
