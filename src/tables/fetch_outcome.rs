//! How a robots.txt capture was fetched: the `fetch_outcome` column of `robots_files`,
//! `robots_hosts` and the summaries. Given by the record's HTTP status, refined for a 2xx by a
//! look at the body (`rows::from_robots::body_facts`); the verdicts of an unparsed capture
//! follow it. Here, with the tables, so that every layer that reads the column names its values
//! from one place (the 2xx set: [`FetchOutcome::is_2xx_name`]).

str_enum! {
    /// The `fetch_outcome` of a robots.txt capture (docs/schema.md).
    pub enum FetchOutcome {
        /// 2xx with a text body.
        Ok = "ok",
        /// 2xx with an empty (or all white space) body.
        OkEmpty = "ok_empty",
        /// 2xx whose body is an HTML (or XML) document rather than a robots.txt.
        NotRobotsHtml = "not_robots_html",
        /// 2xx whose body is mostly control bytes.
        NotRobotsBinary = "not_robots_binary",
        /// 3xx other than 304.
        Redirect = "redirect",
        NotModified = "not_modified",
        Unauthorized = "unauthorized",
        /// 402: a pay-per-crawl scheme's answer.
        PaymentRequired = "payment_required",
        Forbidden = "forbidden",
        /// 404 or 410.
        NotFound = "not_found",
        TooManyRequests = "too_many_requests",
        /// Another 4xx.
        ClientError = "client_error",
        ServerError = "server_error",
        /// 403 or 503 whose body is a bot-protection service's challenge page
        /// (`rows::from_robots::challenge`): neither the site's robots.txt nor its answer about one.
        Challenge = "challenge",
        /// A status outside 200-599.
        OtherStatus = "other_status",
        /// A `revisit` record of a 2xx response (or of a head without a status): its body is
        /// elsewhere. A revisit of another status has that status's outcome.
        Revisit = "revisit",
        /// A `response` record without an HTTP status line.
        NoHttpResponse = "no_http_response",
        /// An HTTP status line without a three-digit code.
        BadStatusLine = "bad_status_line",
        /// An HTTP head that does not end within the part of the record that is read
        /// ([`crate::archive::framing::sink::KEEP_BLOCK`]): the body is not read.
        HeadTooLong = "head_too_long",
    }
}

impl FetchOutcome {
    /// The outcome an HTTP status gives (a 2xx is `Ok` until its body is looked at).
    pub fn of_status(status: Option<u16>) -> Self {
        match status {
            None => FetchOutcome::BadStatusLine,
            Some(200..=299) => FetchOutcome::Ok,
            Some(304) => FetchOutcome::NotModified,
            Some(300..=399) => FetchOutcome::Redirect,
            Some(401) => FetchOutcome::Unauthorized,
            Some(402) => FetchOutcome::PaymentRequired,
            Some(403) => FetchOutcome::Forbidden,
            Some(404 | 410) => FetchOutcome::NotFound,
            Some(429) => FetchOutcome::TooManyRequests,
            Some(400..=499) => FetchOutcome::ClientError,
            Some(500..=599) => FetchOutcome::ServerError,
            Some(_) => FetchOutcome::OtherStatus,
        }
    }

    /// A 2xx whose body is read as a robots.txt: its lines are in the tables and its verdicts
    /// come from them (an empty body reads as no robots.txt).
    pub fn has_rules(self) -> bool {
        self.is_success() && self != FetchOutcome::OkEmpty
    }

    /// Whether a `fetch_outcome` as the tables hold it is a 2xx one ([`Self::is_success`]):
    /// the `hosts_2xx` of the queries.
    pub fn is_2xx_name(name: &str) -> bool {
        FetchOutcome::from_name(name).is_some_and(FetchOutcome::is_success)
    }

    /// A 2xx (or a resource record's body): parsed as a crawler would parse it.
    pub fn is_success(self) -> bool {
        matches!(
            self,
            FetchOutcome::Ok
                | FetchOutcome::OkEmpty
                | FetchOutcome::NotRobotsHtml
                | FetchOutcome::NotRobotsBinary
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_give_their_outcomes() {
        assert_eq!(
            FetchOutcome::of_status(Some(503)),
            FetchOutcome::ServerError
        );
        assert_eq!(FetchOutcome::of_status(Some(410)), FetchOutcome::NotFound);
        assert_eq!(FetchOutcome::of_status(Some(204)), FetchOutcome::Ok);
        assert_eq!(
            FetchOutcome::of_status(Some(304)),
            FetchOutcome::NotModified
        );
        assert_eq!(FetchOutcome::of_status(Some(99)), FetchOutcome::OtherStatus);
        assert_eq!(
            FetchOutcome::of_status(Some(402)).as_str(),
            "payment_required"
        );
        assert_eq!(FetchOutcome::of_status(None).as_str(), "bad_status_line");
    }

    #[test]
    fn the_2xx_set_is_that_of_the_enum_and_of_the_queries_vocabulary() {
        let names: Vec<&str> = (FetchOutcome::ALL.iter())
            .filter(|o| o.is_success())
            .map(|o| o.as_str())
            .collect();
        assert_eq!(
            names,
            ["ok", "ok_empty", "not_robots_html", "not_robots_binary"]
        );
        assert!(names.iter().all(|n| FetchOutcome::is_2xx_name(n)));
        assert!(!FetchOutcome::is_2xx_name("redirect") && !FetchOutcome::is_2xx_name("OK"));
        // The SQL side names the set once: the macro is_2xx of queries/views/vocabulary.sql.
        let root = env!("CARGO_MANIFEST_DIR");
        let vocabulary =
            std::fs::read_to_string(format!("{root}/queries/views/vocabulary.sql")).unwrap();
        let body = vocabulary
            .split("MACRO is_2xx(outcome) AS")
            .nth(1)
            .and_then(|b| b.split(';').next())
            .expect("vocabulary.sql defines is_2xx");
        let quoted = |list: &str| -> Vec<String> {
            (list.split(','))
                .map(|v| v.trim().trim_matches('\'').to_string())
                .collect()
        };
        let list = body.split("IN (").nth(1).and_then(|l| l.split(')').next());
        assert_eq!(list.map(quoted).unwrap_or_default(), names);
        // And no query writes a 2xx list of its own outside its copy of the vocabulary.
        let mut files = 0;
        for e in std::fs::read_dir(format!("{root}/queries")).unwrap() {
            let path = e.unwrap().path();
            let sql = std::fs::read_to_string(&path).unwrap_or_default();
            let own = sql.replace(vocabulary_statements(&vocabulary), "");
            for list in own
                .split("IN (")
                .skip(1)
                .filter_map(|l| l.split(')').next())
            {
                let named = quoted(list)
                    .into_iter()
                    .filter(|q| names.contains(&q.as_str()));
                assert_eq!(
                    named.count(),
                    0,
                    "{}: IN ({list}) writes out 2xx outcomes: say is_2xx(...) (queries/views/vocabulary.sql)",
                    path.display()
                );
            }
            files += 1;
        }
        assert!(files >= 40, "the queries are read ({files})");
    }

    /// The statements of vocabulary.sql, as a query copies them: from its first macro on.
    fn vocabulary_statements(vocabulary: &str) -> &str {
        &vocabulary[vocabulary.find("CREATE ").unwrap_or(0)..]
    }
}
