//! The services' messages, one catalogue with the pages' texts: each message is a key
//! (`check.required`) with its English (the JSON API's language, stable for clients), zh-Hant
//! and zh-Hans texts, where `{}` stands for a value filled in order. A service raises a
//! [`Msg`] (a [`Text`] with its values); the API renders it in English with the key as its
//! `code`, a page in the visitor's language. A text lacking a language does not compile
//! (`messages!` takes exactly three); tests check the keys are unique and the placeholders
//! agree.

use super::Lang;
use std::fmt;

/// A message of the catalogue: its key and its text in each language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text {
    /// The stable key (the API's `code`).
    pub key: &'static str,
    /// English.
    pub en: &'static str,
    /// Traditional Chinese.
    pub hant: &'static str,
    /// Simplified Chinese.
    pub hans: &'static str,
}

impl Text {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::ZhHant => self.hant,
            Lang::ZhHans => self.hans,
        }
    }

    /// The message without values.
    pub fn msg(self) -> Msg {
        Msg {
            repr: Repr::Text(self),
            args: Vec::new(),
        }
    }

    /// The message with `values` for its `{}`, in order (copied as they are).
    pub fn with(self, values: &[&dyn fmt::Display]) -> Msg {
        Msg {
            repr: Repr::Text(self),
            args: values.iter().map(|v| Arg::Plain(v.to_string())).collect(),
        }
    }
}

/// A value of a message: copied as is (a name, a number) or a message rendered in the same
/// language.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Arg {
    Plain(String),
    Msg(Msg),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Repr {
    /// A text of the catalogue, its `{}` filled by the values.
    Text(Text),
    /// The values (messages) joined by a separator (itself a text, per language).
    Join(Text),
    /// A text a page has already put in its visitor's language (never a service's).
    Shown(String),
}

/// A message for a person: a catalogue text and its values. `Display` is the English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    repr: Repr,
    args: Vec<Arg>,
}

impl Msg {
    /// Adds a message as the next value (rendered in the same language as this one).
    pub fn and(mut self, value: Msg) -> Msg {
        self.args.push(Arg::Msg(value));
        self
    }

    /// Adds a plain value (copied as it is).
    pub fn and_value(mut self, value: impl fmt::Display) -> Msg {
        self.args.push(Arg::Plain(value.to_string()));
        self
    }

    /// `message` about `field`: "field: message".
    pub fn field(field: &str, message: Msg) -> Msg {
        FIELD.with(&[&field]).and(message)
    }

    /// Several messages as one, each in the page's language: "a; b" (`"；"` in Chinese).
    pub fn list(messages: impl IntoIterator<Item = Msg>) -> Msg {
        Msg::join(LIST, messages)
    }

    /// Several sentences as one: "a. b" (`"。"` in Chinese).
    pub fn sentences(messages: impl IntoIterator<Item = Msg>) -> Msg {
        Msg::join(SENTENCES, messages)
    }

    fn join(sep: Text, messages: impl IntoIterator<Item = Msg>) -> Msg {
        let mut args: Vec<Arg> = messages.into_iter().map(Arg::Msg).collect();
        if args.len() == 1 {
            if let Some(Arg::Msg(only)) = args.pop() {
                return only;
            }
        }
        Msg {
            repr: Repr::Join(sep),
            args,
        }
    }

    /// A text a page has already rendered in its visitor's language (a page's own note
    /// next to a field, a message rendered for a script): shown as it is.
    pub fn shown(text: impl Into<String>) -> Msg {
        Msg {
            repr: Repr::Shown(text.into()),
            args: Vec::new(),
        }
    }

    /// The stable code of the message: its key; for "field: message" and a list of one, the
    /// inner message's; `several` for a list of several.
    pub fn code(&self) -> &'static str {
        match &self.repr {
            Repr::Text(text) if *text == FIELD => match self.args.get(1) {
                Some(Arg::Msg(inner)) => inner.code(),
                _ => text.key,
            },
            Repr::Text(text) => text.key,
            Repr::Join(_) => "several",
            Repr::Shown(_) => "shown",
        }
    }

    /// The text of the message in English.
    pub fn en(&self) -> String {
        self.render(Lang::En)
    }

    /// The text of the message in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        let value = |arg: &Arg| match arg {
            Arg::Plain(value) => value.clone(),
            Arg::Msg(msg) => msg.render(lang),
        };
        match &self.repr {
            Repr::Text(text) => {
                // Every `{}` gets a value (the tests run with debug assertions).
                debug_assert_eq!(
                    text.en.matches("{}").count(),
                    self.args.len(),
                    "{}: wrong number of values",
                    text.key
                );
                fill(text.get(lang), self.args.iter().map(value))
            }
            Repr::Join(sep) => self
                .args
                .iter()
                .map(value)
                .collect::<Vec<_>>()
                .join(sep.get(lang)),
            Repr::Shown(text) => text.clone(),
        }
    }
}

/// `template` with each `{}` replaced by the next value; values are never read as templates.
fn fill(template: &str, values: impl Iterator<Item = String>) -> String {
    let mut values = values;
    let mut out = String::new();
    let mut pieces = template.split("{}").peekable();
    while let Some(piece) = pieces.next() {
        out.push_str(piece);
        if pieces.peek().is_some() {
            out.push_str(&values.next().unwrap_or_default());
        }
    }
    out
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en())
    }
}

impl PartialEq<str> for Msg {
    /// Compares the English text.
    fn eq(&self, other: &str) -> bool {
        self.en() == other
    }
}

impl PartialEq<&str> for Msg {
    /// Compares the English text.
    fn eq(&self, other: &&str) -> bool {
        self.en() == *other
    }
}

impl serde::Serialize for Msg {
    /// The English text (the API's language).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl From<Text> for Msg {
    fn from(text: Text) -> Msg {
        text.msg()
    }
}

/// The text with `key`, if a message has it.
pub fn by_key(key: &str) -> Option<Text> {
    ALL.iter().find(|t| t.key == key).copied()
}

/// Defines each message as a `Text` constant and lists them all in `ALL`.
macro_rules! messages {
    ($($name:ident = $key:literal: $en:literal | $hant:literal | $hans:literal;)*) => {
        $(
            #[doc = $en]
            pub const $name: Text = Text { key: $key, en: $en, hant: $hant, hans: $hans };
        )*
        /// Every message, in catalogue order.
        pub const ALL: &[Text] = &[$($name),*];
    };
}

messages! {
    // The API's own answers.
    API_TIMED_OUT = "api.timed_out":
        "the request took too long (the database may be busy or unreachable); try again"
        | "請求逾時（資料庫可能忙碌或無法連線）；請再試"
        | "请求超时（数据库可能繁忙或无法连接）；请重试";
    API_BODY_TIMED_OUT = "api.body_timed_out":
        "the request's body did not arrive in time; send it again"
        | "請求內容未能及時送達；請重新送出"
        | "请求内容未能及时送达；请重新提交";
    API_BUSY = "api.busy":
        "the database is busy; try again"
        | "資料庫忙碌中；請再試"
        | "数据库繁忙；请重试";
    API_INTERNAL = "api.internal":
        "internal server error"
        | "伺服器內部錯誤"
        | "服务器内部错误";
    API_METHOD_NOT_ALLOWED = "api.method_not_allowed":
        "this endpoint does not take that method; see the Allow header"
        | "此端點不接受該方法；請參閱 Allow 標頭"
        | "此端点不接受该方法；请参阅 Allow 标头";
    API_MISSING_BEARER = "api.missing_bearer":
        "missing Authorization: Bearer token"
        | "缺少 Authorization: Bearer 權杖"
        | "缺少 Authorization: Bearer 令牌";
    API_TOKEN_INVALID = "api.token_invalid":
        "the token is invalid or expired; log in again"
        | "權杖無效或已過期；請重新登入"
        | "令牌无效或已过期；请重新登录";
    API_NEEDS_LOGIN = "api.needs_login":
        "this needs a login: send Authorization: Bearer TOKEN"
        | "須先登入：請送出 Authorization: Bearer TOKEN"
        | "须先登录：请发送 Authorization: Bearer TOKEN";
    API_NOT_UTF8 = "api.not_utf8":
        "the file is not UTF-8 text (byte {})"
        | "檔案不是 UTF-8 文字（第 {} 位元組）"
        | "文件不是 UTF-8 文本（第 {} 字节）";
    API_IF_MATCH = "api.if_match":
        "must be the version last read, e.g. \"3\""
        | "須為最後讀取的版本，例如 \"3\""
        | "须为最后读取的版本，例如 \"3\"";
    API_UNREADABLE_BODY = "api.unreadable_body":
        "cannot read the body: {}"
        | "無法讀取請求內容：{}"
        | "无法读取请求内容：{}";
    API_INVALID_JSON = "api.invalid_json":
        "invalid JSON body: {}"
        | "JSON 內容無效：{}"
        | "JSON 内容无效：{}";
    API_INVALID_PATH = "api.invalid_path":
        "invalid path: {}"
        | "路徑無效：{}"
        | "路径无效：{}";
    API_INVALID_QUERY = "api.invalid_query":
        "invalid query string: {}"
        | "查詢字串無效：{}"
        | "查询字符串无效：{}";
    API_NO_ENDPOINT = "api.no_endpoint":
        "no such API endpoint"
        | "沒有此 API 端點"
        | "没有此 API 端点";
    // How messages combine.
    FIELD = "msg.field": "{}: {}" | "{}: {}" | "{}: {}";
    LIST = "msg.list": "; " | "；" | "；";
    SENTENCES = "msg.sentences": ". " | "。" | "。";
    CHECK_REQUIRED = "check.required":
        "is required"
        | "必填"
        | "必填";
    CHECK_LONGER_THAN = "check.longer_than":
        "is longer than {} characters"
        | "超過 {} 個字"
        | "超过 {} 个字";
    CHECK_SEARCH_TOO_LONG = "check.search_too_long":
        "the search is too long"
        | "搜尋字串太長"
        | "搜索字符串太长";
    CHECK_SECTION_NAME_EXISTS_PASS_NAME = "check.section_name_exists_pass_name":
        "a section with this name exists; pass ?name=… for another"
        | "已有同名組別；請以 ?name=… 另取名稱"
        | "已有同名组别；请以 ?name=… 另取名称";
    CHECK_SECTION_NAMED_EXISTS = "check.section_named_exists":
        "a section named {} already exists"
        | "已有名為 {} 的組別"
        | "已有名为 {} 的组别";
    CHECK_SECTION_NAME_TAKEN = "check.section_name_taken":
        "another section of this tournament has that name"
        | "本賽事已有另一組別使用此名稱"
        | "本赛事已有另一组别使用此名称";
    TRF_AT = "trf.at":
        "line {}, column {}: {}"
        | "第 {} 行第 {} 欄：{}"
        | "第 {} 行第 {} 列：{}";
    TRF_ROUNDS_HEADER_BELOW_GAMES = "trf.rounds_header_below_games":
        "the file's 142 line says {} rounds, but its games reach round {}"
        | "檔案的 142 行寫 {} 輪，但其對局已到第 {} 輪"
        | "文件的 142 行写 {} 轮，但其对局已到第 {} 轮";
    TRF_MALFORMED_LINE = "trf.malformed_line":
        "a line must start with a three-character record code and a blank"
        | "每行須以三個字元的記錄代碼加一個空格開頭"
        | "每行须以三个字符的记录代码加一个空格开头";
    TRF_INVALID_START_NO = "trf.invalid_start_no":
        "invalid starting-rank number {}"
        | "起始排名編號 {} 無效"
        | "起始排名编号 {} 无效";
    TRF_DUPLICATE_START_NO = "trf.duplicate_start_no":
        "starting-rank number {} appears twice"
        | "起始排名編號 {} 出現兩次"
        | "起始排名编号 {} 出现两次";
    TRF_INVALID_RATING = "trf.invalid_rating":
        "invalid rating {}"
        | "等級分 {} 無效"
        | "等级分 {} 无效";
    TRF_INVALID_POINTS = "trf.invalid_points":
        "invalid points {}"
        | "分數 {} 無效"
        | "分数 {} 无效";
    TRF_INVALID_RANK = "trf.invalid_rank":
        "invalid rank {}"
        | "名次 {} 無效"
        | "名次 {} 无效";
    TRF_INVALID_OPPONENT = "trf.invalid_opponent":
        "invalid opponent {}"
        | "對手 {} 無效"
        | "对手 {} 无效";
    TRF_SELF_OPPONENT = "trf.self_opponent":
        "player {} is paired against himself"
        | "棋手 {} 被編排與自己對局"
        | "棋手 {} 被编排与自己对局";
    TRF_INVALID_COLOUR = "trf.invalid_colour":
        "invalid colour {} (expected w, b, - or blank)"
        | "顏色 {} 無效（應為 w、b、- 或空白）"
        | "颜色 {} 无效（应为 w、b、- 或空白）";
    TRF_INVALID_RESULT = "trf.invalid_result":
        "invalid result code {}"
        | "成績代碼 {} 無效"
        | "成绩代码 {} 无效";
    TEAM_RANK_RULE = "team_rank.bad_rule":
        "the team ranking rule must be wxf or chinese"
        | "團體排名的計算方法須為 wxf 或 chinese"
        | "团体排名的计算方法须为 wxf 或 chinese";
    TRF_TWO_TEAMS = "trf.two_teams":
        "player {} is on two teams (013 records)"
        | "棋手 {} 同時列在兩個隊（013 記錄）"
        | "棋手 {} 同时列在两个队（013 记录）";
    TRF_UNKNOWN_PLAYER = "trf.unknown_player":
        "no player has starting-rank number {}"
        | "沒有起始排名編號為 {} 的棋手"
        | "没有起始排名编号为 {} 的棋手";
    TRF_INVALID_PLAYER_NUMBER = "trf.invalid_player_number":
        "invalid player number {}"
        | "棋手編號 {} 無效"
        | "棋手编号 {} 无效";
    TRF_INVALID_HEADER = "trf.invalid_header":
        "invalid {} record: {}"
        | "{} 記錄無效：{}"
        | "{} 记录无效：{}";
    TRF_HEADER_W_OR_B = "trf.header_w_or_b":
        "expected W or B"
        | "應為 W 或 B"
        | "应为 W 或 B";
    TRF_HEADER_WHOLE_NUMBER = "trf.header_whole_number":
        "expected a whole number"
        | "應為整數"
        | "应为整数";
    TRF_HEADER_ROUND = "trf.header_round":
        "expected a round number from 1 to 999"
        | "應為 1 至 999 的輪次"
        | "应为 1 至 999 的轮次";
    TRF_HEADER_BYE_TYPE = "trf.header_bye_type":
        "bye type must be F, H or Z"
        | "輪空類型須為 F、H 或 Z"
        | "轮空类型须为 F、H 或 Z";
    TRF_HEADER_MISSING_BYE_TYPE = "trf.header_missing_bye_type":
        "missing bye type"
        | "缺少輪空類型"
        | "缺少轮空类型";
    TRF_HEADER_MISSING_ROUND = "trf.header_missing_round":
        "missing round"
        | "缺少輪次"
        | "缺少轮次";
    TRF_HEADER_MATCH_POINTS = "trf.header_match_points":
        "match points must be empty"
        | "團體分須留空"
        | "团体分须留空";
    TRF_HEADER_ACCELERATION_FIELDS = "trf.header_acceleration_fields":
        "expected points, first and last round, first and last player"
        | "應有分數、起訖輪次及起訖棋手序號"
        | "应有分数、起止轮次及起止棋手序号";
    TRF_HEADER_BACKWARDS_RANGE = "trf.header_backwards_range":
        "a range ends before it starts"
        | "範圍的結束早於開始"
        | "范围的结束早于开始";
    TRF_HEADER_SYMBOL_NEEDS_POINTS = "trf.header_symbol_needs_points":
        "a symbol needs points"
        | "每個符號須有分數"
        | "每个符号须有分数";
    TRF_HEADER_UNKNOWN_SYMBOL = "trf.header_unknown_symbol":
        "symbol must be W, D, L, A, P or X"
        | "符號須為 W、D、L、A、P 或 X"
        | "符号须为 W、D、L、A、P 或 X";
    TRF_HEADER_CODE_VALUE = "trf.header_code_value":
        "expected CODE=VALUE"
        | "應為 CODE=VALUE 格式"
        | "应为 CODE=VALUE 格式";
    TRF_HEADER_UNKNOWN_SCORING_CODE = "trf.header_unknown_scoring_code":
        "unknown scoring code"
        | "無法識別的計分代碼"
        | "无法识别的计分代码";
    TRF_HEADER_ONE_POINTS = "trf.header_one_points":
        "expected one points value"
        | "應只有一個分數"
        | "应只有一个分数";
    TRF_HEADER_KEY_VALUE = "trf.header_key_value":
        "expected KEY=VALUE"
        | "應為 KEY=VALUE 格式"
        | "应为 KEY=VALUE 格式";
    TRF_HEADER_PAIRING_SYSTEM = "trf.header_pairing_system":
        "pairing_system must be one of {}"
        | "pairing_system 須為以下之一：{}"
        | "pairing_system 须为以下之一：{}";
    TRF_HEADER_TIEBREAKS = "trf.header_tiebreaks":
        "tiebreaks: {}"
        | "tiebreaks：{}"
        | "tiebreaks：{}";
    TRF_HEADER_UNPLAYED = "trf.header_unplayed":
        "unknown unplayed-round mode {} (known: cxa, fide2023, fide2026, none)"
        | "無法識別的未對弈輪次計算方式 {}（可用：cxa、fide2023、fide2026、none）"
        | "无法识别的未对弈轮次计算方式 {}（可用：cxa、fide2023、fide2026、none）";
    TRF_HEADER_FOUL_THRESHOLD = "trf.header_foul_threshold":
        "foul_threshold must be a whole number from 1 to 99"
        | "foul_threshold 須為 1 至 99 的整數"
        | "foul_threshold 须为 1 至 99 的整数";
    TRF_HEADER_FORFEIT_COUNTS_AS_MET = "trf.header_forfeit_counts_as_met":
        "forfeit_counts_as_met must be true or false"
        | "forfeit_counts_as_met 須為 true 或 false"
        | "forfeit_counts_as_met 须为 true 或 false";
    TRF_HEADER_UNKNOWN_KEY = "trf.header_unknown_key":
        "unknown key {} (known: pairing_system, tiebreaks, unplayed, foul_threshold, forfeit_counts_as_met)"
        | "無法識別的設定 {}（可用：pairing_system、tiebreaks、unplayed、foul_threshold、forfeit_counts_as_met）"
        | "无法识别的设置 {}（可用：pairing_system、tiebreaks、unplayed、foul_threshold、forfeit_counts_as_met）";
    TRF_COLOUR_DEPENDENT_SCORING = "trf.colour_dependent_scoring":
        "colour-dependent scoring is not supported"
        | "不支援依顏色而異的計分"
        | "不支持依颜色而异的计分";
    TRF_BYE_WITH_OPPONENT = "trf.bye_with_opponent":
        "result code {} is a bye, which has no opponent (write 0000 - {})"
        | "成績代碼 {} 是輪空，不應有對手（請寫 0000 - {}）"
        | "成绩代码 {} 是轮空，不应有对手（请写 0000 - {}）";
    TRF_GAME_WITHOUT_OPPONENT = "trf.game_without_opponent":
        "result code {} needs an opponent; a round without one takes U, F, H, Z, +, - or blank"
        | "成績代碼 {} 須有對手；沒有對手的輪次只可用 U、F、H、Z、+、- 或空白"
        | "成绩代码 {} 须有对手；没有对手的轮次只可用 U、F、H、Z、+、- 或空白";
    TRF_ONE_SIDED_NAMES = "trf.one_sided_names":
        "player {} meets {} in round {}, but {}'s line names {} in that round"
        | "棋手 {} 與 {} 在第 {} 輪對局，但 {} 的行在該輪寫的是 {}"
        | "棋手 {} 与 {} 在第 {} 轮对局，但 {} 的行在该轮写的是 {}";
    TRF_ONE_SIDED_NONE = "trf.one_sided_none":
        "player {} meets {} in round {}, but {}'s line has no game in that round"
        | "棋手 {} 與 {} 在第 {} 輪對局，但 {} 的行在該輪沒有對局"
        | "棋手 {} 与 {} 在第 {} 轮对局，但 {} 的行在该轮没有对局";
    TRF_PAIRED_TWICE = "trf.paired_twice":
        "player {} plays twice in round {}: against {} and against {}"
        | "棋手 {} 在第 {} 輪下了兩局：對 {} 及對 {}"
        | "棋手 {} 在第 {} 轮下了两局：对 {} 及对 {}";
    TRF_COLOUR_MISMATCH = "trf.colour_mismatch":
        "round {}: player {} has colour {} against {}, whose line {} has {}; one must be w and the other b"
        | "第 {} 輪：棋手 {} 的顏色為 {}，對手 {}（第 {} 行）為 {}；須一方為 w、另一方為 b"
        | "第 {} 轮：棋手 {} 的颜色为 {}，对手 {}（第 {} 行）为 {}；须一方为 w、另一方为 b";
    TRF_RESULT_MISMATCH = "trf.result_mismatch":
        "round {}: player {} has result {} against {}, whose line {} has {}; the two results contradict each other"
        | "第 {} 輪：棋手 {} 的成績為 {}，對手 {}（第 {} 行）為 {}；兩者互相矛盾"
        | "第 {} 轮：棋手 {} 的成绩为 {}，对手 {}（第 {} 行）为 {}；两者互相矛盾";
    TRF_SECOND_PAIRING_BYE = "trf.second_pairing_bye":
        "round {}: player {} has the pairing-allocated bye (U), which player {} already has; a round has at most one"
        | "第 {} 輪：棋手 {} 獲編排輪空（U），但棋手 {} 已有；每輪最多一個"
        | "第 {} 轮：棋手 {} 获编排轮空（U），但棋手 {} 已有；每轮最多一个";
    TRF_BYE_CONFLICT = "trf.bye_conflict":
        "player {} already has a record in round {}"
        | "棋手 {} 在第 {} 輪已有紀錄"
        | "棋手 {} 在第 {} 轮已有记录";
    STATE_NO_BRACKET = "state.no_bracket":
        "the bracket cannot be drawn"
        | "無法建立對陣表"
        | "无法建立对阵表";
    STATE_BRACKET_SEEDED_TWICE = "state.bracket_seeded_twice":
        "entrant {} is seeded twice"
        | "參賽者 {} 被排入種子兩次"
        | "参赛者 {} 被排入种子两次";
    STATE_PAIRING_RULE = "state.pairing_rule":
        "{}"
        | "違反編排規則：{}"
        | "违反编排规则：{}";
    STATE_PAIRING_REMATCH = "state.pairing_rematch":
        "{} and {} have already played each other"
        | "{} 與 {} 已經對弈過"
        | "{} 与 {} 已经对弈过";
    STATE_PAIRING_FORBIDDEN = "state.pairing_forbidden":
        "{} and {} must not be paired against each other"
        | "{} 與 {} 不得編排對弈"
        | "{} 与 {} 不得编排对弈";
    STATE_PAIRING_COLOUR_DIFFERENCE_RED = "state.pairing_colour_difference_red":
        "{} would reach a colour difference of {} by playing red"
        | "{} 若執紅，紅黑局數差將達 {}"
        | "{} 若执红，红黑局数差将达 {}";
    STATE_PAIRING_COLOUR_DIFFERENCE_BLACK = "state.pairing_colour_difference_black":
        "{} would reach a colour difference of {} by playing black"
        | "{} 若執黑，紅黑局數差將達 {}"
        | "{} 若执黑，红黑局数差将达 {}";
    STATE_PAIRING_THREE_RED = "state.pairing_three_red":
        "{} would play red three times in a row"
        | "{} 將連續三輪執紅"
        | "{} 将连续三轮执红";
    STATE_PAIRING_THREE_BLACK = "state.pairing_three_black":
        "{} would play black three times in a row"
        | "{} 將連續三輪執黑"
        | "{} 将连续三轮执黑";
    STATE_PAIRING_INELIGIBLE_BYE = "state.pairing_ineligible_bye":
        "{} may not receive the pairing-allocated bye (already scored '{}' without playing)"
        | "{} 不可獲編排輪空（已有未對弈而得分的紀錄「{}」）"
        | "{} 不可获编排轮空（已有未对弈而得分的记录“{}”）";
    STATE_PAIRING_BYE_NEEDED = "state.pairing_bye_needed":
        "an odd number of entrants needs a pairing-allocated bye"
        | "參賽者人數為單數，須有一人編排輪空"
        | "参赛者人数为单数，须有一人编排轮空";
    STATE_PAIRING_BYE_EVEN = "state.pairing_bye_even":
        "{} gets a bye although the number of entrants is even"
        | "參賽者人數為雙數，{} 卻獲輪空"
        | "参赛者人数为双数，{} 却获轮空";
    STATE_PAIRING_UNPAIRED = "state.pairing_unpaired":
        "{} is to be paired but appears nowhere"
        | "{} 應參加本輪編排，卻未被編排"
        | "{} 应参加本轮编排，却未被编排";
    STATE_PAIRING_TWICE = "state.pairing_twice":
        "{} appears more than once in the pairing"
        | "{} 在編排中出現多於一次"
        | "{} 在编排中出现多于一次";
    STATE_PAIRING_AGAINST_SELF = "state.pairing_against_self":
        "{} is paired against themself"
        | "{} 被編排與自己對弈"
        | "{} 被编排与自己对弈";
    STATE_PAIRING_ABSENT = "state.pairing_absent":
        "{} is absent or withdrawn this round but is paired"
        | "{} 本輪缺席或已退賽，卻被編排"
        | "{} 本轮缺席或已退赛，却被编排";
    STATE_PAIRING_NOT_ENTRANT = "state.pairing_not_entrant":
        "{} is not an entrant but is paired"
        | "{} 不是參賽者，卻被編排"
        | "{} 不是参赛者，却被编排";
    TRF_NO_PLAYERS = "trf.no_players":
        "the file has no player (001) lines"
        | "檔案中沒有棋手（001）行"
        | "文件中没有棋手（001）行";
    TRF_UNKNOWN_PAIRING_SYSTEM = "trf.unknown_pairing_system":
        "unknown pairing system {} in the arbiter settings"
        | "裁判設定中的編排制度 {} 無法識別"
        | "裁判设置中的编排制度 {} 无法识别";
    TRF_PLAYER_NAME = "trf.player_name":
        "player {}: the name {}"
        | "棋手 {}：姓名{}"
        | "棋手 {}：姓名{}";
    CSV_CANNOT_READ_HEADER = "csv.cannot_read_header":
        "cannot read the header row: {}"
        | "無法讀取標題列：{}"
        | "无法读取标题行：{}";
    CSV_FIELD_NOT_UTF8 = "csv.field_not_utf8":
        "field {} is not UTF-8 text"
        | "第 {} 欄不是 UTF-8 文字"
        | "第 {} 列不是 UTF-8 文本";
    CSV_UNEQUAL_LENGTHS = "csv.unequal_lengths":
        "has {} fields where {} were expected"
        | "有 {} 欄，應為 {} 欄"
        | "有 {} 列，应为 {} 列";
    CSV_CANNOT_BE_READ = "csv.cannot_be_read":
        "the CSV reader cannot read it"
        | "CSV 讀取器無法讀取"
        | "CSV 读取器无法读取";
    CSV_HEADER_NEEDS_NAME = "csv.header_needs_name":
        "the header row needs a `name` column"
        | "標題列須有 `name` 欄"
        | "标题行须有 `name` 列";
    CSV_UNREADABLE_ROW = "csv.unreadable_row":
        "{}"
        | "無法讀取此列：{}"
        | "无法读取此行：{}";
    STATE_ONLY_ACTIVE_CAN_QUALIFY = "state.only_active_can_qualify":
        "only {} active entrants can qualify"
        | "只有 {} 名有效參賽者可晉級"
        | "只有 {} 名有效参赛者可晋级";
    CHECK_UNKNOWN_TIEBREAK = "check.unknown_tiebreak":
        "unknown tie-break {} (known: OPP, BH, BH/C1, BH/C2, BH/M1, SB, SB/C1, PS, PS/C1, WIN, WON, BPG, BWG, DE, FOULS, PREV, CUT_EARLY, RTNG, LOT)"
        | "未知的小分規則 {}（可用：OPP、BH、BH/C1、BH/C2、BH/M1、SB、SB/C1、PS、PS/C1、WIN、WON、BPG、BWG、DE、FOULS、PREV、CUT_EARLY、RTNG、LOT）"
        | "未知的小分规则 {}（可用：OPP、BH、BH/C1、BH/C2、BH/M1、SB、SB/C1、PS、PS/C1、WIN、WON、BPG、BWG、DE、FOULS、PREV、CUT_EARLY、RTNG、LOT）";
    CHECK_TIEBREAK_MODIFIER = "check.tiebreak_modifier":
        "tie-break {}: modifier {} is not supported"
        | "小分規則 {}：不支援修飾 {}"
        | "小分规则 {}：不支持修饰 {}";
    CHECK_UNKNOWN_PRESET = "check.unknown_preset":
        "unknown preset {} (known: cxa2011_opp, cxa2011_prog, seed002_main, seed002_supp, seed004_tw, fide_swiss)"
        | "未知的預設 {}（可用：cxa2011_opp、cxa2011_prog、seed002_main、seed002_supp、seed004_tw、fide_swiss）"
        | "未知的预设 {}（可用：cxa2011_opp、cxa2011_prog、seed002_main、seed002_supp、seed004_tw、fide_swiss）";
    CHECK_BRACKET_SIZE = "check.bracket_size":
        "a knockout bracket holds 2 to 64 entrants (power of two for the order), not {}"
        | "淘汰賽對陣表可容納 2 至 64 名參賽者（依 2 的冪排序），而非 {} 名"
        | "淘汰赛对阵表可容纳 2 至 64 名参赛者（依 2 的幂排序），而非 {} 名";
    CHECK_STAGE_AFTER_ROUND = "check.stage_after_round":
        "the knockout is seeded after a round from 1 to {} (before the last)"
        | "淘汰賽須在第 1 至 {} 輪（最後一輪之前）後選出"
        | "淘汰赛须在第 1 至 {} 轮（最后一轮之前）后选出";
    CHECK_STAGE_FINAL_ROUNDS = "check.stage_final_rounds":
        "a last-round final needs at least two rounds"
        | "末輪決賽至少需要兩輪"
        | "末轮决赛至少需要两轮";
    CHECK_STAGE_QUALIFIERS = "check.stage_qualifiers":
        "this section's stages seed {} qualifiers into the knockout"
        | "本組別的賽制設定由 {} 名晉級者進入淘汰賽"
        | "本组别的赛制设定由 {} 名晋级者进入淘汰赛";
    CHECK_STAGE_ROUND_ROBIN = "check.stage_round_robin":
        "a round robin has no overlapping stages"
        | "循環賽不設重疊賽段"
        | "循环赛不设重叠赛段";
    CHECK_TOO_MANY_TIEBREAKS = "check.too_many_tiebreaks":
        "at most {} tiebreaks"
        | "最多 {} 項破同分規則"
        | "最多 {} 项破同分规则";
    CHECK_TOO_LONG = "check.too_long":
        "must be at most {} characters"
        | "最多 {} 個字"
        | "最多 {} 个字";
    CHECK_BETWEEN = "check.between":
        "must be between {} and {}"
        | "須介於 {} 與 {} 之間"
        | "须介于 {} 与 {} 之间";
    CHECK_ONE_OF = "check.one_of":
        "must be one of: {}"
        | "須為以下之一：{}"
        | "须为以下之一：{}";
    CHECK_NOT_EMAIL = "check.not_email":
        "is not an email address"
        | "不是有效的電郵地址"
        | "不是有效的电子邮箱地址";
    CHECK_DOUBLES_TEAM_NEEDS_EXACTLY = "check.doubles_team_needs_exactly":
        "a doubles team needs exactly two members"
        | "雙人隊須剛好兩名成員"
        | "双人队须刚好两名成员";
    CHECK_ONLY_DOUBLES_MEMBERS = "check.only_doubles_members":
        "only doubles sections take members"
        | "只有雙人組別才有隊員"
        | "只有双人组别才有队员";
    CHECK_ONLY_DOUBLES_PARTNER = "check.only_doubles_partner":
        "only doubles sections take a partner"
        | "只有雙人組別才需搭檔"
        | "只有双人组别才需搭档";
    CHECK_WAIVER_MUST_ACCEPTED_REGISTER = "check.waiver_must_accepted_register":
        "the waiver must be accepted to register"
        | "須同意免責聲明方可報名"
        | "须同意免责声明方可报名";
    CHECK_CHOOSE_FEE_TIER = "check.choose_fee_tier":
        "choose a fee tier"
        | "請選擇收費類別"
        | "请选择收费类别";
    CHECK_MUST_THREE_LETTER_CURRENCY = "check.must_three_letter_currency":
        "must be a three-letter currency code such as CAD, HKD or TWD"
        | "須為三個字母的貨幣代碼，例如 CAD、HKD 或 TWD"
        | "须为三个字母的货币代码，例如 CAD、HKD 或 TWD";
    CHECK_NAME_LEAST_TWO_NEW = "check.name_least_two_new":
        "name at least two new sections"
        | "請列出至少兩個新組別"
        | "请列出至少两个新组别";
    CHECK_MUST_YYYY_MM_DD = "check.must_yyyy_mm_dd":
        "must be YYYY-MM-DD"
        | "格式須為 YYYY-MM-DD"
        | "格式须为 YYYY-MM-DD";
    CHECK_MUST_WHOLE_NUMBER = "check.must_whole_number":
        "must be a whole number"
        | "須為整數"
        | "须为整数";
    CHECK_MUST_POWER_TWO_FROM = "check.must_power_two_from":
        "must be a power of two from 2 to 64"
        | "須為 2 至 64 之間的 2 的冪"
        | "须为 2 至 64 之间的 2 的幂";
    CHECK_NAME_2_64_SECTIONS = "check.name_2_64_sections":
        "name 2 to 64 sections"
        | "請列出 2 至 64 個組別"
        | "请列出 2 至 64 个组别";
    CHECK_PLACE_OR_CATEGORY_NOT_BOTH = "check.place_or_category_not_both":
        "give a place range or a category, not both"
        | "請填名次範圍或類別，不可兩者皆填"
        | "请填名次范围或类别，不可两者皆填";
    CHECK_PLACE_OR_CATEGORY = "check.place_or_category":
        "give a place range or a category"
        | "請填名次範圍或類別"
        | "请填名次范围或类别";
    CHECK_MUST_LEAST_PLACE_FROM = "check.must_least_place_from":
        "must be at least place_from (both ≥ 1)"
        | "不可小於起始名次（兩者皆 ≥ 1）"
        | "不可小于起始名次（两者皆 ≥ 1）";
    CHECK_FORFEITED_GAME_HAS_NO = "check.forfeited_game_has_no":
        "a forfeited game has no fouls"
        | "棄權的對局不記犯規"
        | "弃权的对局不记犯规";
    CHECK_ALREADY_ANOTHER_BOARD = "check.already_another_board":
        "is already on another board"
        | "已排在另一台"
        | "已排在另一台";
    CHECK_GIVE_LEAST_ONE_BOARD = "check.give_least_one_board":
        "give at least one board"
        | "請至少填一台"
        | "请至少填一台";
    CHECK_ONLY_ONE_BYE_LAST = "check.only_one_bye_last":
        "only one bye, on the last board"
        | "只可有一個輪空，且排在最後一台"
        | "只可有一个轮空，且排在最后一台";
    CHECK_NOT_ENTRANT_SECTION = "check.not_entrant_section":
        "{} is not an entrant of this section"
        | "{} 不是本組別的參賽者"
        | "{} 不是本组别的参赛者";
    CHECK_GIVE_EITHER_TIEBREAKS_PRESET = "check.give_either_tiebreaks_preset":
        "give either tiebreaks or preset, not both"
        | "小分規則與預設只可擇一"
        | "小分规则与预设只可择一";
    CHECK_HIDDEN_PIECE_SET_UPS = "check.hidden_piece_set_ups":
        "hidden-piece set-ups exist only for Jieqi and Banqi"
        | "只有揭棋與暗棋才有暗子布局"
        | "只有揭棋与暗棋才有暗子布局";
    CHECK_REQUIRED_MOST_100_CHARACTERS = "check.required_most_100_characters":
        "is required (at most 100 characters)"
        | "必填（最多 100 個字）"
        | "必填（最多 100 个字）";
    CHECK_MUST_NUMBER_POINTS_BETWEEN = "check.must_number_points_between":
        "must be a number of points between 0 and 100 with at most one decimal"
        | "須為 0 至 100 之間、最多一位小數的分數"
        | "须为 0 至 100 之间、最多一位小数的分数";
    CHECK_MUST_AFTER_REGISTRATION_OPENS = "check.must_after_registration_opens":
        "must be after registration_opens_at"
        | "須晚於報名開始時間"
        | "须晚于报名开始时间";
    CHECK_MUST_NOT_EXCEED_CAP = "check.must_not_exceed_cap":
        "must not exceed cap"
        | "不可超過名額上限"
        | "不可超过名额上限";
    CHECK_MUST_SATISFY_WIN_DRAW = "check.must_satisfy_win_draw":
        "must satisfy win ≥ draw ≥ loss"
        | "須符合 勝 ≥ 和 ≥ 負"
        | "须符合 胜 ≥ 和 ≥ 负";
    CHECK_REQUIRED_XIANGQI_JIEQI_BANQI = "check.required_xiangqi_jieqi_banqi":
        "is required (xiangqi, jieqi or banqi)"
        | "必填（象棋、揭棋或暗棋）"
        | "必填（象棋、揭棋或暗棋）";
    CHECK_MUST_TRF_26_CODE = "check.must_trf_26_code":
        "must be a TRF-26 code such as 600+3 or 5400+30"
        | "須為 TRF-26 格式，例如 600+3 或 5400+30"
        | "须为 TRF-26 格式，例如 600+3 或 5400+30";
    CHECK_MUST_NOT_BEFORE_STARTS = "check.must_not_before_starts":
        "must not be before starts_on"
        | "不可早於開始日期"
        | "不可早于开始日期";
    CHECK_MUST_IANA_TIME_ZONE = "check.must_iana_time_zone":
        "must be an IANA time zone such as Asia/Hong_Kong or America/Toronto"
        | "須為 IANA 時區，例如 Asia/Hong_Kong 或 America/Toronto"
        | "须为 IANA 时区，例如 Asia/Hong_Kong 或 America/Toronto";
    CHECK_HAS_MORE_THAN_20 = "check.has_more_than_20":
        "has more than 20 rows"
        | "超過 20 列"
        | "超过 20 列";
    CHECK_GRAND_FINAL_NOT_DECIDED = "check.grand_final_not_decided":
        "the grand final is not decided yet (no playoff, or a match is still being played)"
        | "總決賽尚未決出（未設總決賽，或仍有對局進行中）"
        | "总决赛尚未决出（未设总决赛，或仍有对局进行中）";
    CHECK_MUST_NOT_BELOW_MIN = "check.must_not_below_min":
        "must not be below min"
        | "不可小於最少人數"
        | "不可小于最少人数";
    CHECK_FOLLOWS_ROW_WITHOUT_MAX = "check.follows_row_without_max":
        "follows a row without max (only the last row may leave it open)"
        | "前一列沒有最多人數（只有最後一列可以不設上限）"
        | "前一列没有最多人数（只有最后一列可以不设上限）";
    CHECK_MUST_ABOVE_PREVIOUS_ROW = "check.must_above_previous_row":
        "must be above the previous row's max (rows in order, not overlapping)"
        | "須大於前一列的最多人數（各列依序排列、不可重疊）"
        | "须大于前一列的最多人数（各列依序排列、不可重叠）";
    CHECK_TABLE_ROUNDS_ENTRY_COUNT = "check.table_rounds_entry_count":
        "the table of rounds by entry count has no row for {} entrants; add one in the section's settings"
        | "按人數定輪數的表格沒有 {} 人的一列；請在組別設定中補上"
        | "按人数定轮数的表格没有 {} 人的一列；请在组别设置中补上";
    STATE_ENTRANT_ALREADY_WITHDRAWN = "state.entrant_already_withdrawn":
        "the entrant is already withdrawn"
        | "該參賽者已退賽"
        | "该参赛者已退赛";
    STATE_ENTRANT_NOT_WITHDRAWN = "state.entrant_not_withdrawn":
        "the entrant is not withdrawn"
        | "該參賽者未退賽"
        | "该参赛者未退赛";
    STATE_CHOOSE_LEAST_ONE_ENTRANT = "state.choose_least_one_entrant":
        "choose at least one entrant to check in"
        | "請至少選擇一名參賽者報到"
        | "请至少选择一名参赛者报到";
    STATE_CHECK_MOST_ENTRANTS_ONCE = "state.check_most_entrants_once":
        "check in at most {} entrants at once"
        | "一次最多報到 {} 名參賽者"
        | "一次最多报到 {} 名参赛者";
    STATE_WITHDRAWN_RE_ADMIT_THEM = "state.withdrawn_re_admit_them":
        "{} is withdrawn; re-admit them before checking them in"
        | "{} 已退賽；請先恢復參賽再報到"
        | "{} 已退赛；请先恢复参赛再报到";
    STATE_NO_ENTRANT_HAS_NUMBER = "state.no_entrant_has_number":
        "no entrant has the number {}"
        | "沒有編號 {} 的參賽者"
        | "没有编号 {} 的参赛者";
    STATE_SECTION_CANCELLED = "state.section_cancelled":
        "the section is cancelled"
        | "本組別已取消"
        | "本组别已取消";
    STATE_THIS_SECTION_CANCELLED = "state.this_section_cancelled":
        "this section is cancelled"
        | "本組別已取消"
        | "本组别已取消";
    STATE_SECTION_ALREADY_CANCELLED = "state.section_already_cancelled":
        "the section is already cancelled"
        | "本組別早已取消"
        | "本组别早已取消";
    STATE_NO_GAME_DUE_MATCH = "state.no_game_due_match":
        "no game is due in this match"
        | "本場對賽暫無待下的對局"
        | "本场对赛暂无待下的对局";
    STATE_SECTION_HAS_NO_ENTRANTS = "state.section_has_no_entrants":
        "section {} has no entrants"
        | "組別 {} 沒有參賽者"
        | "组别 {} 没有参赛者";
    STATE_SECTION_NOT_FINISHED = "state.section_not_finished":
        "section {} is not finished"
        | "組別 {} 尚未完賽"
        | "组别 {} 尚未完赛";
    STATE_SWISS_STAGE_NOT_COMPLETE = "state.swiss_stage_not_complete":
        "the Swiss stage is not complete ({} of {} rounds paired{}); finish it first"
        | "瑞士制階段尚未完成（已編排 {} / {} 輪{}），請先完成"
        | "瑞士制阶段尚未完成（已编排 {} / {} 轮{}），请先完成";
    STATE_STAGE_KNOCKOUT_NOT_SEEDED = "state.stage_knockout_not_seeded":
        "round {} is paired without the knockout's qualifiers: seed the knockout (the top {} after round {}) first"
        | "第 {} 輪編排時須排除淘汰賽晉級者：請先選出淘汰賽（前 {} 名，依第 {} 輪後名次）"
        | "第 {} 轮编排时须排除淘汰赛晋级者：请先选出淘汰赛（前 {} 名，依第 {} 轮后名次）";
    STATE_STAGE_SEED_AFTER_ROUND = "state.stage_seed_after_round":
        "the knockout is seeded from the standings after round {}, and {} rounds are paired"
        | "淘汰賽依第 {} 輪後的名次選出，但已編排 {} 輪"
        | "淘汰赛依第 {} 轮后的名次选出，但已编排 {} 轮";
    STATE_STAGE_SETTINGS_LOCKED = "state.stage_settings_locked":
        "the stages cannot change any more: round {}, which they change, is paired"
        | "賽段設定已不能變更：受其影響的第 {} 輪已編排"
        | "赛段设定已不能变更：受其影响的第 {} 轮已编排";
    STATE_KNOCKOUT_SECTION_NOT_FINISHED = "state.knockout_section_not_finished":
        "the knockout of section {} is not finished"
        | "組別 {} 的淘汰賽尚未完成"
        | "组别 {} 的淘汰赛尚未完成";
    STATE_PLAYERS_MATCH_ARE_NOT = "state.players_match_are_not":
        "the players of this match are not known yet"
        | "本場對賽的棋手尚未確定"
        | "本场对赛的棋手尚未确定";
    STATE_MATCH_DECIDED = "state.match_decided":
        "this match is decided"
        | "本場對賽已分勝負"
        | "本场对赛已分胜负";
    STATE_KO_TIEBREAKS_PLAYED = "state.ko_tiebreaks_played":
        "a tiebreak game of knockout round {} is already played: its tiebreak games can no longer change"
        | "淘汰賽第 {} 輪已有加賽對局，其加賽辦法不能再更改"
        | "淘汰赛第 {} 轮已有加赛对局，其加赛办法不能再更改";
    STALE_KO_STAGE = "stale.ko_stage":
        "the rules of this knockout round were changed meanwhile (now change {}; you saw change {}); reload and try again"
        | "此淘汰賽輪次的規則已被他人更改（目前為第 {} 次修改，你看到的是第 {} 次）；請重新載入再試"
        | "此淘汰赛轮次的规则已被他人更改（目前为第 {} 次修改，你看到的是第 {} 次）；请重新加载再试";
    CHECK_KO_NO_ROUND = "check.ko_no_round":
        "the bracket has rounds 1 to {}"
        | "淘汰賽只有第 1 至 {} 輪"
        | "淘汰赛只有第 1 至 {} 轮";
    CHECK_KO_TIEBREAK_KIND = "check.ko_tiebreak_kind":
        "must be rapid or armageddon"
        | "須為快棋或絕殺局"
        | "须为快棋或绝杀局";
    CHECK_KO_AFTER_ARMAGEDDON = "check.ko_after_armageddon":
        "nothing can follow an armageddon game (a draw there is a win for Black)"
        | "絕殺局之後不能再有加賽（和棋即判黑勝）"
        | "绝杀局之后不能再有加赛（和棋即判黑胜）";
    CHECK_KO_TIEBREAK_LINE = "check.ko_tiebreak_line":
        "write each line as the kind (rapid or armageddon), the number of games and the time control, e.g. rapid 2 10+5"
        | "每行依序寫上種類（rapid 快棋或 armageddon 絕殺局）、局數及用時，例如 rapid 2 10+5"
        | "每行依序写上种类（rapid 快棋或 armageddon 绝杀局）、局数及用时，例如 rapid 2 10+5";
    STATE_SECTION_ALREADY_HAS_KNOCKOUT = "state.section_already_has_knockout":
        "this section already has a knockout stage"
        | "本組別已有淘汰賽階段"
        | "本组别已有淘汰赛阶段";
    STATE_TOURNAMENT_ALREADY_HAS_PLAYOFF = "state.tournament_already_has_playoff":
        "this tournament already has a playoff"
        | "本賽事已有附加賽"
        | "本赛事已有附加赛";
    STATE_FINAL_RANKING_NOT_KNOWN = "state.final_ranking_not_known":
        "the final ranking is not known yet (a stage is still being played)"
        | "最終名次尚未確定（仍有階段在進行）"
        | "最终名次尚未确定（仍有阶段在进行）";
    STATE_REGISTRATION_CANNOT_CONFIRMED = "state.registration_cannot_confirmed":
        "a {} registration cannot be confirmed"
        | "狀態為 {} 的報名不能確認"
        | "状态为 {} 的报名不能确认";
    STATE_REGISTRATION_CLOSED = "state.registration_closed":
        "registration is closed"
        | "報名已截止"
        | "报名已截止";
    STATE_REGISTRATION_NOT_OPEN_YET = "state.registration_not_open_yet":
        "registration is not open yet"
        | "報名尚未開始"
        | "报名尚未开始";
    STATE_ROUND_1_PAIRED_SECTION = "state.round_1_paired_section":
        "round 1 is paired: the section can no longer be cancelled"
        | "第 1 輪已編排，組別不能再取消"
        | "第 1 轮已编排，组别不能再取消";
    STATE_MINIMUM_ENTRIES_REACHED_ENTRANTS = "state.minimum_entries_reached_entrants":
        "the minimum of {} entries is reached ({} entrants)"
        | "已達最低參賽人數 {}（現有 {} 人）"
        | "已达最低参赛人数 {}（现有 {} 人）";
    STATE_REGISTRATION_ALREADY_CONFIRMED = "state.registration_already_confirmed":
        "the registration is already confirmed"
        | "該報名已確認"
        | "该报名已确认";
    STATE_REGISTRATION_ALREADY_IS = "state.registration_already_is":
        "the registration is already {}"
        | "該報名已是 {}"
        | "该报名已是 {}";
    STATE_SECTION_HAS_PAIRED_ROUNDS = "state.section_has_paired_rounds":
        "the section has paired rounds: split it before round 1"
        | "本組別已有編排的輪次，請於第 1 輪前分組"
        | "本组别已有编排的轮次，请于第 1 轮前分组";
    STATE_SECTION_FULL_WITHDRAW_SOMEONE = "state.section_full_withdraw_someone":
        "the section is full; withdraw someone or raise the cap first"
        | "本組別已滿額，請先讓人退出或提高名額"
        | "本组别已满额，请先让人退出或提高名额";
    STATE_ALL_ROUNDS_SECTION_ARE = "state.all_rounds_section_are":
        "all {} rounds of this section are paired"
        | "本組別全部 {} 輪均已編排"
        | "本组别全部 {} 轮均已编排";
    STATE_LEAST_TWO_ENTRANTS_MUST = "state.least_two_entrants_must":
        "at least two entrants must be available to pair a round"
        | "至少要有兩名可出賽的參賽者才能編排"
        | "至少要有两名可出赛的参赛者才能编排";
    STATE_NO_LEGAL_PAIRING_EXISTS = "state.no_legal_pairing_exists":
        "no legal pairing exists: {}"
        | "不存在合規的編排：{}"
        | "不存在合规的编排：{}";
    STATE_ONLY_LAST_ROUND_CAN = "state.only_last_round_can":
        "only the last round ({}) can be unpaired"
        | "只能取消最後一輪（第 {} 輪）的編排"
        | "只能取消最后一轮（第 {} 轮）的编排";
    STATE_ROUND_HAS_RESULTS_UNPAIR = "state.round_has_results_unpair":
        "round {} has results: unpair it instead"
        | "第 {} 輪已有成績，請改為取消編排"
        | "第 {} 轮已有成绩，请改为取消编排";
    STATE_ROUND_HAS_RESULT_S = "state.round_has_result_s":
        "round {} has {} result(s); repeat with ?force=true to delete them with the pairing"
        | "第 {} 輪已有 {} 個成績；確認後會連同編排一併刪除"
        | "第 {} 轮已有 {} 个成绩；确认后会连同编排一并删除";
    STATE_ROUND_ONLY_PAIRED_UNPUBLISHED = "state.round_only_paired_unpublished":
        "round {} is {}: only a paired, unpublished round can be edited"
        | "第 {} 輪狀態為 {}：只有已編排而未公佈的輪次可修改"
        | "第 {} 轮状态为 {}：只有已编排而未公布的轮次可修改";
    STATE_ROUND_STILL_HAS_BOARD = "state.round_still_has_board":
        "round {} still has {} board(s) without a result; enter them before pairing the next round"
        | "第 {} 輪仍有 {} 台未有成績；請先輸入再編排下一輪"
        | "第 {} 轮仍有 {} 台未有成绩；请先输入再编排下一轮";
    STALE_RESULT = "stale.result":
        "the result was changed meanwhile (it is now at change {}; you saw change {}); reload and try again"
        | "成績已被他人更改（目前為第 {} 次修改，你看到的是第 {} 次）；請重新載入再試"
        | "成绩已被他人更改（目前为第 {} 次修改，你看到的是第 {} 次）；请重新加载再试";
    STALE_RESULT_BY_SOMEONE = "stale.result_by_someone":
        "the result was changed meanwhile by someone else; reload and try again"
        | "成績已被他人更改；請重新載入再試"
        | "成绩已被他人更改；请重新加载再试";
    STATE_BOARD_BYE_HAS_NO = "state.board_bye_has_no":
        "this board is a bye: it has no result to enter"
        | "此台為輪空，無成績可輸入"
        | "此台为轮空，无成绩可输入";
    STATE_PAIRING_BREAKS_RULE_S = "state.pairing_breaks_rule_s":
        "the pairing breaks {} rule(s); send \"confirm\": true to apply it anyway"
        | "此編排違反 {} 條規則；確認後仍可套用"
        | "此编排违反 {} 条规则；确认后仍可套用";
    ACCESS_WRONG_USERNAME_PASSWORD = "access.wrong_username_password":
        "wrong username or password"
        | "用戶名稱或密碼錯誤"
        | "用户名或密码错误";
    ACCESS_SCORERS_CANNOT_CREATE_TOURNAMENTS = "access.scorers_cannot_create_tournaments":
        "scorers cannot create tournaments"
        | "記分員不能建立賽事"
        | "记分员不能创建赛事";
    REPORT_NO_GAME_REPORT_HAS = "report.no_game_report_has":
        "no game to report has this code; check the code on your result slip"
        | "沒有可用此代碼回報的對局；請核對成績單上的代碼"
        | "没有可用此代码回报的对局；请核对成绩单上的代码";
    REPORT_GAME_S_RESULT_ALREADY = "report.game_s_result_already":
        "this game's result is already recorded; ask the arbiter to correct it"
        | "此局結果已登錄；如需更正請洽裁判"
        | "此局结果已登记；如需更正请联系裁判";
    REPORT_NOBODY_HAS_REPORTED_GAME = "report.nobody_has_reported_game":
        "nobody has reported this game"
        | "尚無人回報此局"
        | "尚无人回报此局";
    REPORT_ONLY_ONE_SIDE_HAS = "report.only_one_side_has":
        "only one side has reported: the opponent has not confirmed"
        | "只有一方回報：對手尚未確認"
        | "只有一方回报：对手尚未确认";
    REPORT_PLAYERS_REPORTS_DISAGREE_ENTER = "report.players_reports_disagree_enter":
        "the players' reports disagree: enter the result yourself"
        | "雙方回報不一致：請由裁判登錄結果"
        | "双方回报不一致：请由裁判登记结果";
    STATE_PUBLISH_ROUND_BEFORE_RESULTS = "state.publish_round_before_results":
        "publish the round before entering its results"
        | "請先公佈本輪對陣再輸入成績"
        | "请先公布本轮对阵再输入成绩";
    REPORT_PUBLISH_ROUND_BEFORE_STARTING = "report.publish_round_before_starting":
        "publish the round before starting its clock"
        | "請先公佈本輪對陣再開始計時"
        | "请先公布本轮对阵再开始计时";
    CLOCK_MINUTES_RANGE = "report.clock_minutes_range":
        "the round length is a number of minutes from 1 to {}"
        | "每輪時限須為 1 至 {} 分鐘"
        | "每轮时限须为 1 至 {} 分钟";
    REPORT_ROUND_OVER_ASK_ARBITER = "report.round_over_ask_arbiter":
        "the round is over: ask the arbiter to enter the record"
        | "本輪已結束：請洽裁判登錄棋譜"
        | "本轮已结束：请联系裁判登记棋谱";
    REPORT_GAME_ALREADY_HAS_RECORD = "report.game_already_has_record":
        "this game already has a record; ask the arbiter to correct it"
        | "此局已有棋譜；如需更正請洽裁判"
        | "此局已有棋谱；如需更正请联系裁判";
    REPORT_RECORD_AFTER_REVEAL = "report.record_after_reveal":
        "this game's record can be sent once the round is over and its set-up revealed"
        | "本輪結束、布局公開後方可提交此局棋譜"
        | "本轮结束、布局公开后方可提交此局棋谱";
    REPORT_SIDE_NOT_YOURS = "report.side_not_yours":
        "your code or key reports for your own side only"
        | "你的代碼或密鑰只能回報本方"
        | "你的代码或密钥只能回报本方";
    REPORT_DISPUTED_DESK_DECIDES = "report.disputed_desk_decides":
        "the players' reports disagree: the arbiter decides, and no further report is taken"
        | "雙方回報不一致：由裁判裁定，不再接受回報"
        | "双方回报不一致：由裁判裁定，不再接受回报";
    KEY_UNKNOWN = "key.unknown":
        "no player has this key; check the key on your card"
        | "沒有選手使用此密鑰；請核對你的卡片"
        | "没有选手使用此密钥；请核对你的卡片";
    KEY_NO_GAME_TO_REPORT = "key.no_game_to_report":
        "you have no game to report in the current round"
        | "你在本輪沒有可回報的對局"
        | "你在本轮没有可回报的对局";
    KEY_SELF_CHECK_IN_OFF = "key.self_check_in_off":
        "this section has no self check-in: check in at the desk"
        | "本組不開放自行報到：請到服務台報到"
        | "本组不开放自行报到：请到服务台报到";
    KEY_CHECK_IN_CLOSED = "key.check_in_closed":
        "check-in is not open now: check in at the desk"
        | "目前不在報到時間內：請到服務台報到"
        | "目前不在报到时间内：请到服务台报到";
    KEY_WITHDRAWN = "key.withdrawn":
        "you are withdrawn from this section: ask the arbiter"
        | "你已退出本組：請洽裁判"
        | "你已退出本组：请联系裁判";
    CHECK_CHECK_IN_CLOSES_AFTER_OPENS = "check.check_in_closes_after_opens":
        "check-in must close after it opens"
        | "報到截止時間須晚於開始時間"
        | "报到截止时间须晚于开始时间";
    CHECK_SCHEDULE_ROUND = "check.schedule_round":
        "round {} is not a round of this section (1 to {})"
        | "第 {} 輪不在本組的輪次內（1 至 {}）"
        | "第 {} 轮不在本组的轮次内（1 至 {}）";
    CHECK_SCHEDULE_TWICE = "check.schedule_twice":
        "round {} is given twice"
        | "第 {} 輪重複了"
        | "第 {} 轮重复了";
    CHECK_SCHEDULE_ORDER = "check.schedule_order":
        "round {} must start after round {}"
        | "第 {} 輪的開始時間須晚於第 {} 輪"
        | "第 {} 轮的开始时间须晚于第 {} 轮";
    CHECK_SCHEDULE_TIME = "check.schedule_time":
        "write the time as 2026-12-08T09:30 in the event's time zone, or RFC 3339 with an offset (a time the clocks skip does not exist)"
        | "時間請寫成 2026-12-08T09:30（賽事時區），或帶時差的 RFC 3339（撥鐘跳過的時間不存在）"
        | "时间请写成 2026-12-08T09:30（赛事时区），或带时差的 RFC 3339（拨钟跳过的时间不存在）";
    CHECK_WEBHOOK_URL = "check.webhook_url":
        "give the webhook's address as https://host/path (no user name or password in it)"
        | "請以 https://主機/路徑 的形式填寫 Webhook 位址（不可含帳號或密碼）"
        | "请以 https://主机/路径 的形式填写 Webhook 地址（不可含用户名或密码）";
    CHECK_WEBHOOK_SECRET = "check.webhook_secret":
        "a secret has 16 to 200 visible ASCII characters (leave it empty to have one made)"
        | "密鑰須為 16 至 200 個可見 ASCII 字元（留空則自動產生）"
        | "密钥须为 16 至 200 个可见 ASCII 字符（留空则自动生成）";
    NOT_FOUND_WEBHOOK = "not_found.webhook":
        "webhook not found"
        | "找不到該 Webhook"
        | "找不到该 Webhook";
    CHECK_EMAIL_FOR_NOTIFICATIONS = "check.email_for_notifications":
        "give an e-mail address to get e-mail"
        | "要收到電郵，請填寫電郵地址"
        | "要收到邮件，请填写邮件地址";
    CHECK_PUSH_ENDPOINT = "check.push_endpoint":
        "the subscription's endpoint must be the push service's https:// address"
        | "訂閱的端點必須是推播服務的 https:// 位址"
        | "订阅的端点必须是推送服务的 https:// 地址";
    CHECK_PUSH_KEYS = "check.push_keys":
        "the subscription's keys are not the browser's (p256dh: a P-256 public key, auth: 16 bytes, both base64url)"
        | "訂閱的金鑰不是瀏覽器提供的（p256dh：P-256 公鑰；auth：16 位元組；皆為 base64url）"
        | "订阅的密钥不是浏览器提供的（p256dh：P-256 公钥；auth：16 字节；均为 base64url）";
    NOT_FOUND_UNSUBSCRIBE = "not_found.unsubscribe":
        "this unsubscribe link is not known (it may be mistyped)"
        | "此取消訂閱連結無效（可能輸入有誤）"
        | "此取消订阅链接无效（可能输入有误）";
    NOT_FOUND_PUSH_SUBSCRIPTION = "not_found.push_subscription":
        "this browser is not subscribed"
        | "此瀏覽器未訂閱通知"
        | "此浏览器未订阅通知";
    NOT_FOUND_ACTION = "not_found.action":
        "action not found"
        | "找不到該操作"
        | "找不到该操作";
    NOT_FOUND_BOARD = "not_found.board":
        "board not found"
        | "找不到該台"
        | "找不到该台";
    NOT_FOUND_BRACKET = "not_found.bracket":
        "bracket not found"
        | "找不到對陣表"
        | "找不到对阵表";
    NOT_FOUND_ENTRANT = "not_found.entrant":
        "entrant not found"
        | "找不到該參賽者"
        | "找不到该参赛者";
    NOT_FOUND_KNOCKOUT_STAGE = "not_found.knockout_stage":
        "knockout stage not found"
        | "找不到淘汰賽階段"
        | "找不到淘汰赛阶段";
    NOT_FOUND_MATCH = "not_found.match":
        "match not found"
        | "找不到該場對賽"
        | "找不到该场对赛";
    NOT_FOUND_PLAYOFF = "not_found.playoff":
        "playoff not found"
        | "找不到附加賽"
        | "找不到附加赛";
    NOT_FOUND_REGISTRATION = "not_found.registration":
        "registration not found"
        | "找不到該報名"
        | "找不到该报名";
    NOT_FOUND_ROUND = "not_found.round":
        "round not found"
        | "找不到該輪（或尚未公佈）"
        | "找不到该轮（或尚未公布）";
    NOT_FOUND_SET_UP = "not_found.set_up":
        "set-up not found"
        | "找不到該布局"
        | "找不到该布局";
    NOT_FOUND_SECTION = "not_found.section":
        "section not found"
        | "找不到該組別"
        | "找不到该组别";
    NOT_FOUND_TOURNAMENT = "not_found.tournament":
        "tournament not found"
        | "找不到該賽事"
        | "找不到该赛事";
    NOT_FOUND_GAME = "not_found.game":
        "game not found"
        | "找不到該對局"
        | "找不到该对局";
    NOT_FOUND_INVITATION = "not_found.invitation":
        "invitation not found"
        | "找不到該邀請"
        | "找不到该邀请";
    NOT_FOUND_PASSWORD_RESET = "not_found.password_reset":
        "password reset not found"
        | "找不到該密碼重設"
        | "找不到该密码重置";
    NOT_FOUND_PAYMENT = "not_found.payment":
        "payment not found"
        | "找不到該收支紀錄"
        | "找不到该收支记录";
    NOT_FOUND_RECORD = "not_found.record":
        "record not found"
        | "找不到該棋譜"
        | "找不到该棋谱";
    NOT_FOUND_REQUESTED_BYE = "not_found.requested_bye":
        "requested bye not found"
        | "找不到該輪空申請"
        | "找不到该轮空申请";
    NOT_FOUND_SESSION = "not_found.session":
        "session not found"
        | "找不到該登入工作階段"
        | "找不到该登录会话";
    NOT_FOUND_STAFF_MEMBER = "not_found.staff_member":
        "staff member not found"
        | "找不到該職員"
        | "找不到该职员";
    NOT_FOUND_BYE = "not_found.bye":
        "bye not found"
        | "找不到該輪空"
        | "找不到该轮空";
    NOT_FOUND_FORBIDDEN_PAIR = "not_found.forbidden_pair":
        "forbidden pair not found"
        | "找不到該禁止配對"
        | "找不到该禁止配对";
    NOT_FOUND_USER = "not_found.user":
        "user not found"
        | "找不到該帳號"
        | "找不到该用户";
    FORM_TWO_ENTRANTS_NEEDED = "form.two_entrants_needed":
        "two entrant ids are needed"
        | "須有兩位參賽者的編號"
        | "须有两位参赛者的编号";
    FORM_MUST_DIFFER_FROM_A = "form.must_differ_from_a":
        "must differ from a"
        | "須與另一位參賽者不同"
        | "须与另一位参赛者不同";
    FORM_MUST_DIFFER_FROM_RED = "form.must_differ_from_red":
        "must differ from red"
        | "須與紅方不同"
        | "须与红方不同";
    FORM_NOT_ENTRANT_SECTION = "form.not_entrant_section":
        "is not an entrant of this section"
        | "不是本組別的參賽者"
        | "不是本组别的参赛者";
    FORM_ONLY_ONE_HALF_FULL = "form.only_one_half_full":
        "only one half- or full-point bye per entrant; ask for a zero-point bye"
        | "每位參賽者只可申請一次半分或全分輪空；請改為不計分輪空"
        | "每位参赛者只可申请一次半分或全分轮空；请改为不计分轮空";
    FORM_ROUND_ALREADY_PAIRED_UNPAIR = "form.round_already_paired_unpair":
        "round {} is already paired: unpair it before cancelling its byes"
        | "第 {} 輪已編排：須先撤銷編排才能取消該輪的輪空申請"
        | "第 {} 轮已编排：须先撤销编排才能取消该轮的轮空申请";
    FORM_CANNOT_CHANGE_ONCE_ROUND = "form.cannot_change_once_round":
        "cannot change once round 1 is paired"
        | "第一輪編排後不能更改"
        | "第一轮编排后不能更改";
    FORM_CANNOT_CHANGE_ONCE_ENTRANTS = "form.cannot_change_once_entrants":
        "cannot change once entrants exist"
        | "已有參賽者後不能更改"
        | "已有参赛者后不能更改";
    FORM_ROUNDS_ARE_ALREADY_PAIRED = "form.rounds_are_already_paired":
        "{} rounds are already paired"
        | "已編排 {} 輪"
        | "已编排 {} 轮";
    FORM_NOT_SECTION_TOURNAMENT = "form.not_section_tournament":
        "is not a section of this tournament"
        | "不是本賽事的組別"
        | "不是本赛事的组别";
    FORM_NAME_EACH_SECTION_ONCE = "form.name_each_section_once":
        "name each section once"
        | "每個組別只可列出一次"
        | "每个组别只可列出一次";
    TEXT_OUT_RANGE_MUST_BETWEEN = "text.out_range_must_between":
        "is out of range: must be between 1900-01-01 and {}"
        | "超出範圍：須介於 1900-01-01 與 {} 之間"
        | "超出范围：须介于 1900-01-01 与 {} 之间";
    TEXT_MUST_NOT_CONTAIN_CONTROL = "text.must_not_contain_control":
        "must not contain control characters (found {})"
        | "不可含控制字元（發現 {}）"
        | "不可含控制字符（发现 {}）";
    TEXT_MUST_SINGLE_LINE = "text.must_single_line":
        "must be a single line"
        | "只能有一行"
        | "只能有一行";
    TEXT_MUST_NOT_CONTAIN_TEXT = "text.must_not_contain_text":
        "must not contain text-direction control characters (found {})"
        | "不可含文字方向控制字元（發現 {}）"
        | "不可含文字方向控制字符（发现 {}）";
    TEXT_CONTAINS_GARBLED_CHARACTER_TYPE = "text.contains_garbled_character_type":
        "contains a garbled character ({}); type the text again"
        | "含有亂碼字元（{}）；請重新輸入"
        | "含有乱码字符（{}）；请重新输入";
    STALE_SETTINGS = "stale.settings":
        "the settings were changed meanwhile (it is now at change {}; you saw change {}); reload and try again"
        | "設定已被他人更改（目前為第 {} 次修改，你看到的是第 {} 次）；請重新載入再試"
        | "设置已被他人更改（目前为第 {} 次修改，你看到的是第 {} 次）；请重新加载再试";
    STALE_MATCH = "stale.match":
        "the match was changed meanwhile (it is now at change {}; you saw change {}); reload and try again"
        | "此對賽已被他人更改（目前為第 {} 次修改，你看到的是第 {} 次）；請重新載入再試"
        | "此对赛已被他人更改（目前为第 {} 次修改，你看到的是第 {} 次）；请重新加载再试";
    STALE_REGISTRATION = "stale.registration":
        "the registration was changed meanwhile (it is now at change {}; you saw change {}); reload and try again"
        | "此報名已被他人更改（目前為第 {} 次修改，你看到的是第 {} 次）；請重新載入再試"
        | "此报名已被他人更改（目前为第 {} 次修改，你看到的是第 {} 次）；请重新加载再试";
    STALE_ROUND = "stale.round":
        "the round was changed meanwhile (it is now at change {}; you saw change {}); reload and try again"
        | "此輪已被他人更改（目前為第 {} 次修改，你看到的是第 {} 次）；請重新載入再試"
        | "此轮已被他人更改（目前为第 {} 次修改，你看到的是第 {} 次）；请重新加载再试";
    TIE_FALLS_INSIDE_TIE_TIEBREAK = "tie.falls_inside_tie_tiebreak":
        "{} falls inside a tie that the tiebreak chain does not break ({}); draw lots or set their order first"
        | "{} 落在破同分規則無法分開的並列之中（{}）；請先抽籤或排定其順序"
        | "{} 落在破同分规则无法分开的并列之中（{}）；请先抽签或排定其顺序";
    TIE_KNOCKOUT_CUT_OFF = "tie.knockout_cut_off":
        "the knockout cut-off"
        | "淘汰賽晉級線"
        | "淘汰赛晋级线";
    TIE_FINAL_CUT_OFF = "tie.final_cut_off":
        "the last round's final (second place)"
        | "末輪決賽（第二名）"
        | "末轮决赛（第二名）";
    TIE_CHAMPION_OF_SECTION = "tie.champion_of_section":
        "the champion of section {}"
        | "組別 {} 的冠軍"
        | "组别 {} 的冠军";
    TIE_PRIZE_PLACES = "tie.prize_places":
        "prize places {}–{}"
        | "獎項名次 {}–{}"
        | "奖项名次 {}–{}";
    TIE_NAME_LEAST_TWO_TIED = "tie.name_least_two_tied":
        "name at least two tied entrants"
        | "請列出至少兩名並列者"
        | "请列出至少两名并列者";
    TIE_MUST_EXACTLY_ONE_GROUP = "tie.must_exactly_one_group":
        "must be exactly one group the tiebreak chain leaves tied (at rank {}: {})"
        | "須剛好是一組破同分後仍並列的選手（第 {} 名：{}）"
        | "须刚好是一组破同分后仍并列的选手（第 {} 名：{}）";
    CSV_CONTAINS_NUL_CHARACTER = "csv.contains_nul_character":
        "contains a NUL character"
        | "含有 NUL 字元"
        | "含有 NUL 字符";
    CSV_TEXT_AFTER_CLOSING_QUOTE = "csv.text_after_closing_quote":
        "text after a closing quote: quote the whole field and double any quote inside it (\"\")"
        | "結束引號後仍有文字：請將整個欄位加上引號，欄位內的引號須寫兩次（\"\"）"
        | "结束引号后仍有文字：请将整个字段加上引号，字段内的引号须写两次（\"\"）";
    CSV_QUOTE_INSIDE_UNQUOTED_FIELD = "csv.quote_inside_unquoted_field":
        "a quote inside an unquoted field: quote the whole field and double the quote (\"\")"
        | "未加引號的欄位內有引號：請將整個欄位加上引號，並將引號寫兩次（\"\"）"
        | "未加引号的字段内有引号：请将整个字段加上引号，并将引号写两次（\"\"）";
    CSV_QUOTE_OPENED_HERE_NEVER = "csv.quote_opened_here_never":
        "a quote opened here is never closed"
        | "此處開始的引號沒有結束"
        | "此处开始的引号没有结束";
    CSV_LINE_1_HEADER_ROW = "csv.line_1_header_row":
        "line 1 (header row): {}"
        | "第 1 行（標題列）：{}"
        | "第 1 行（标题行）：{}";
    DB_NUL_IN_TEXT = "db.nul_in_text":
        "a text in the request must not contain NUL characters"
        | "請求中的文字不可含 NUL 字元"
        | "请求中的文字不可含 NUL 字符";
    DB_DATE_OUT_OF_RANGE = "db.date_out_of_range":
        "a date in the request is out of range"
        | "請求中的日期超出範圍"
        | "请求中的日期超出范围";
    DB_NUMBER_OUT_OF_RANGE = "db.number_out_of_range":
        "a number in the request is out of range"
        | "請求中的數字超出範圍"
        | "请求中的数字超出范围";
    DB_VALUE_ALREADY_TAKEN = "db.value_already_taken":
        "this value is already taken"
        | "此值已被使用"
        | "此值已被使用";
    DB_VALUE_BREAKS_RULE = "db.value_breaks_rule":
        "the value breaks the rule {}"
        | "此值違反規則 {}"
        | "此值违反规则 {}";
    DB_STILL_REFERRED_OTHER_RECORDS = "db.still_referred_other_records":
        "this is still referred to by other records; remove those first"
        | "仍有其他紀錄引用此項；請先移除它們"
        | "仍有其他记录引用此项；请先移除它们";
    DB_REFERS_SOMETHING_DOES_NOT = "db.refers_something_does_not":
        "refers to something that does not exist"
        | "所指的項目不存在"
        | "所指的项目不存在";
    DB_OVERLAPS_EXISTING_RECORD = "db.overlaps_existing_record":
        "this overlaps an existing record"
        | "與現有紀錄重疊"
        | "与现有记录重叠";
    ACCOUNT_MUST_LEAST_8_CHARACTERS = "account.must_least_8_characters":
        "must be at least 8 characters"
        | "至少須有 8 個字元"
        | "至少须有 8 个字符";
    ACCOUNT_MUST_1_64_CHARACTERS = "account.must_1_64_characters":
        "must be 1 to 64 characters"
        | "須為 1 至 64 個字元"
        | "须为 1 至 64 个字符";
    ACCOUNT_MUST_NOT_CONTAIN_CONTROL = "account.must_not_contain_control":
        "must not contain control characters"
        | "不可包含控制字元"
        | "不可包含控制字符";
    ACCOUNT_MUST_ADMIN_USER = "account.must_admin_user":
        "must be admin or user"
        | "須為 admin 或 user"
        | "须为 admin 或 user";
    ACCOUNT_USERNAME_NO_INVISIBLE = "account.username_no_invisible":
        "must not contain spaces or invisible characters ({})"
        | "不可包含空白或隱形字元（{}）"
        | "不可包含空格或隐形字符（{}）";
    ACCOUNT_USER_NAMED_ALREADY_EXISTS = "account.user_named_already_exists":
        "a user named {} already exists"
        | "已有名為 {} 的帳號"
        | "已有名为 {} 的用户";
    ACCOUNT_INVITATION_USED = "account.invitation_used":
        "this invitation link has already been used (or was withdrawn); ask the chief arbiter for a new one"
        | "此邀請連結已被使用（或已撤回）；請向裁判長索取新的連結"
        | "此邀请链接已被使用（或已撤回）；请向裁判长索取新的链接";
    ACCOUNT_INVITATION_EXPIRED = "account.invitation_expired":
        "this invitation link has expired; ask the chief arbiter for a new one"
        | "此邀請連結已過期；請向裁判長索取新的連結"
        | "此邀请链接已过期；请向裁判长索取新的链接";
    ACCOUNT_NOT_YOUR_PASSWORD = "account.not_your_password":
        "is not your password"
        | "不是您的密碼"
        | "不是您的密码";
    ACCOUNT_ONLY_ADMINS_MANAGE_USERS = "account.only_admins_manage_users":
        "only admins manage users"
        | "只有管理員可管理帳號"
        | "只有管理员可管理用户";
    ACCOUNT_LAST_ADMIN_CANNOT_DISABLED = "account.last_admin_cannot_disabled":
        "the last admin cannot be disabled or made a user"
        | "不可停用或降級最後一位管理員"
        | "不可停用或降级最后一位管理员";
    ACCOUNT_LAST_ADMIN_CANNOT_DELETED = "account.last_admin_cannot_deleted":
        "the last admin cannot be deleted"
        | "不可刪除最後一位管理員"
        | "不可删除最后一位管理员";
    ACCOUNT_USER_HAS_STAFFED_TOURNAMENTS = "account.user_has_staffed_tournaments":
        "this user has staffed tournaments or made changes; disable the account instead"
        | "此帳號曾任賽事職務或有操作紀錄，請改為停用"
        | "此用户曾任赛事职务或有操作记录，请改为停用";
    ACCOUNT_ONLY_CHIEF_ARBITER_TOURNAMENT = "account.only_chief_arbiter_tournament":
        "only the chief arbiter of this tournament may do this"
        | "只有本賽事的裁判長可執行此操作"
        | "只有本赛事的裁判长可执行此操作";
    ACCOUNT_SCORERS_TOURNAMENT_MAY_ONLY = "account.scorers_tournament_may_only":
        "scorers of this tournament may only enter results: this needs an arbiter or the chief arbiter"
        | "本賽事的記分員只可登錄成績：此操作須由裁判或裁判長執行"
        | "本赛事的记分员只可登录成绩：此操作须由裁判或裁判长执行";
    ACCOUNT_YOU_ARE_NOT_ARBITER = "account.you_are_not_arbiter":
        "you are not an arbiter of this tournament: this needs a role on its staff"
        | "您不是本賽事的裁判：此操作須具備本賽事的工作人員角色"
        | "您不是本赛事的裁判：此操作须具备本赛事的工作人员角色";
    ACCOUNT_ONLY_ADMIN_NAMES_CHIEF = "account.only_admin_names_chief":
        "only an admin names the chief arbiter"
        | "只有管理員可指定裁判長"
        | "只有管理员可指定裁判长";
    ACCOUNT_NO_SUCH_ACTIVE_USER = "account.no_such_active_user":
        "no such active user"
        | "沒有此有效帳號"
        | "没有此有效用户";
    ACCOUNT_CHIEF_ARBITER_KEEPS_ROLE = "account.chief_arbiter_keeps_role":
        "the chief arbiter keeps the role until an admin names another"
        | "裁判長須待管理員指定新人選後方可卸任"
        | "裁判长须待管理员指定新人选后方可卸任";
    ACCOUNT_TOO_MANY_ATTEMPTS_WAIT = "account.too_many_attempts_wait":
        "too many attempts; wait a few minutes and try again"
        | "嘗試次數過多，請稍候幾分鐘再試"
        | "尝试次数过多，请稍候几分钟再试";
    RECORD_TOO_MANY_BYTES = "record.too_many_bytes":
        "a record may have at most 16384 bytes"
        | "棋譜最多 16384 位元組"
        | "棋谱最多 16384 字节";
    RECORD_TOO_MANY_PLIES = "record.too_many_plies":
        "a record may have at most 600 half-moves"
        | "棋譜最多 600 步（半回合）"
        | "棋谱最多 600 步（半回合）";
    STALE_RECORD = "stale.record":
        "the record was changed meanwhile (it is now at change {}; you saw change {}); reload and try again"
        | "棋譜已被他人修改（版本 {}，您送出的是 {}）；請重新載入後再試"
        | "棋谱已被他人修改（版本 {}，您提交的是 {}）；请重新加载后再试";
    RECORD_PLY_CANNOT_READ_MOVE = "record.ply_cannot_read_move":
        "ply {}: cannot read \"{}\" as a move in this notation"
        | "第 {} 步：「{}」不是此記譜法的著法"
        | "第 {} 步：“{}”不是此记谱法的着法";
    RECORD_PLY_NOT_LEGAL_MOVE = "record.ply_not_legal_move":
        "ply {}: \"{}\" is not a legal move here"
        | "第 {} 步：「{}」在此局面不合規則"
        | "第 {} 步：“{}”在此局面不合规则";
    RECORD_PLY_FITS_MORE_THAN = "record.ply_fits_more_than":
        "ply {}: \"{}\" fits more than one move ({}); say which piece"
        | "第 {} 步：「{}」可指多步（{}）；請註明是哪一子（前、後等）"
        | "第 {} 步：“{}”可指多步（{}）；请注明是哪一子（前、后等）";
    RECORD_PLY_MOVES_FACE_DOWN = "record.ply_moves_face_down":
        "ply {}: \"{}\" moves the face-down piece on {}; add the piece it turned out to be"
        | "第 {} 步：「{}」走動 {} 的暗子；請在末尾加上翻出的棋子"
        | "第 {} 步：“{}”走动 {} 的暗子；请在末尾加上翻出的棋子";
    RECORD_PLY_REVEALS_BUT_SET = "record.ply_reveals_but_set":
        "ply {}: \"{}\" reveals {} on {}, but the set-up put {} there"
        | "第 {} 步：「{}」翻出 {}（{}），但布局在該處是 {}"
        | "第 {} 步：“{}”翻出 {}（{}），但布局在该处是 {}";
    RECORD_PLY_CANNOT_REVEAL_THAT = "record.ply_cannot_reveal_that":
        "ply {}: \"{}\" cannot reveal that on {}: {}"
        | "第 {} 步：「{}」在 {} 翻出的棋子不符：{}"
        | "第 {} 步：“{}”在 {} 翻出的棋子不符：{}";
    RECORD_REVEAL_SET_UP_HAS = "record.reveal_set_up_has":
        "the set-up has {}"
        | "布局在該處是 {}"
        | "布局在该处是 {}";
    RECORD_REVEAL_NOT_GIVEN = "record.reveal_not_given":
        "the piece revealed is not given"
        | "未註明翻出的棋子"
        | "未注明翻出的棋子";
    RECORD_REVEAL_FACE_UP = "record.reveal_face_up":
        "face up"
        | "此子已是明子"
        | "此子已是明子";
    RECORD_REVEAL_ALL_ACCOUNTED_FOR = "record.reveal_all_accounted_for":
        "not that: every one of them is accounted for"
        | "不可能是此子：此種棋子已全數出現"
        | "不可能是此子：此种棋子已全数出现";
    RECORD_REVEAL_NOT_A_GENERAL = "record.reveal_not_a_general":
        "not a general"
        | "暗子不會是將帥"
        | "暗子不会是将帅";
    RECORD_REVEAL_NONE_LEFT = "record.reveal_none_left":
        "no such piece is left face down"
        | "已沒有此種暗子"
        | "已没有此种暗子";
    RECORD_PLY_CANNOT_REVEAL_PIECE = "record.ply_cannot_reveal_piece":
        "ply {}: \"{}\" cannot reveal {} on {}: {}"
        | "第 {} 步：「{}」不能翻出 {}（{}）：{}"
        | "第 {} 步：“{}”不能翻出 {}（{}）：{}";
    EVENT_FILE_REFERS_WHICH_NOT_FILE = "event_file.refers_which_not_file":
        "refers to {} {}, which is not in the file"
        | "指向檔案中沒有的 {} {}"
        | "指向文件中没有的 {} {}";
    EVENT_FILE_REFERS_ENTRANT_ANOTHER_SECTION = "event_file.refers_entrant_another_section":
        "refers to an entrant of another section than the round's"
        | "指向的參賽者不屬於該輪的組別"
        | "指向的参赛者不属于该轮的组别";
    EVENT_FILE_FILE_TWICE = "event_file.file_twice":
        "{} is in the file twice"
        | "{} 在檔案中出現兩次"
        | "{} 在文件中出现两次";
    EVENT_FILE_NOT_COLUMN_TABLE = "event_file.not_column_table":
        "is not a column of this table"
        | "不是此資料表的欄位"
        | "不是此数据表的字段";
    EVENT_FILE_NOT_TABLE_EVENT_FILE = "event_file.not_table_event_file":
        "is not a table of an event file"
        | "不是賽事檔案的資料表"
        | "不是赛事文件的数据表";
    EVENT_FILE_MUST_HOLD_EXACTLY_ONE = "event_file.must_hold_exactly_one":
        "must hold exactly one tournament, not {}"
        | "須剛好包含一個賽事，而非 {} 個"
        | "须刚好包含一个赛事，而非 {} 个";
    EVENT_FILE_MUST_ARBITER_EVENT_NOT = "event_file.must_arbiter_event_not":
        "must be \"arbiter-event\" (this is not an event file of arbiter)"
        | "須為 \"arbiter-event\"（這不是 arbiter 的賽事檔案）"
        | "须为 \"arbiter-event\"（这不是 arbiter 的赛事文件）";
    EVENT_FILE_SERVER_READS_VERSION_EVENT = "event_file.server_reads_version_event":
        "this server reads version {} of the event file, not {}"
        | "本伺服器讀取第 {} 版的賽事檔案，而非第 {} 版"
        | "本服务器读取第 {} 版的赛事文件，而非第 {} 版";
    EVENT_FILE_DATABASE_REFUSES_ROW = "event_file.database_refuses_row":
        "the database refuses a row{}: {}"
        | "資料庫拒絕一列資料{}：{}"
        | "数据库拒绝一行数据{}：{}";
    DB_REFUSAL_IN_COLUMN = "db.refusal_in_column":
        "column {}: {}"
        | "欄位 {}：{}"
        | "字段 {}：{}";
    DB_REFUSAL_NOT_NULL = "db.refusal_not_null":
        "a required value is missing (SQLSTATE {})"
        | "缺少必填的值（SQLSTATE {}）"
        | "缺少必填的值（SQLSTATE {}）";
    DB_REFUSAL_FOREIGN_KEY = "db.refusal_foreign_key":
        "it refers to a row that does not exist (SQLSTATE {})"
        | "指向不存在的資料（SQLSTATE {}）"
        | "指向不存在的数据（SQLSTATE {}）";
    DB_REFUSAL_UNIQUE = "db.refusal_unique":
        "a value that must be unique is repeated (SQLSTATE {})"
        | "須唯一的值重複出現（SQLSTATE {}）"
        | "须唯一的值重复出现（SQLSTATE {}）";
    DB_REFUSAL_CHECK = "db.refusal_check":
        "a value breaks a check of the table (SQLSTATE {})"
        | "有值不符合資料表的檢查條件（SQLSTATE {}）"
        | "有值不符合数据表的检查条件（SQLSTATE {}）";
    DB_REFUSAL_EXCLUSION = "db.refusal_exclusion":
        "it conflicts with another row (SQLSTATE {})"
        | "與另一列資料衝突（SQLSTATE {}）"
        | "与另一行数据冲突（SQLSTATE {}）";
    DB_REFUSAL_TOO_LONG = "db.refusal_too_long":
        "a value is too long for its column (SQLSTATE {})"
        | "有值超出欄位長度（SQLSTATE {}）"
        | "有值超出字段长度（SQLSTATE {}）";
    DB_REFUSAL_OUT_OF_RANGE = "db.refusal_out_of_range":
        "a number is out of range for its column (SQLSTATE {})"
        | "有數值超出欄位範圍（SQLSTATE {}）"
        | "有数值超出字段范围（SQLSTATE {}）";
    DB_REFUSAL_DATE_TIME = "db.refusal_date_time":
        "a date or time is not valid (SQLSTATE {})"
        | "日期或時間無效（SQLSTATE {}）"
        | "日期或时间无效（SQLSTATE {}）";
    DB_REFUSAL_WRONG_FORM = "db.refusal_wrong_form":
        "a value does not have the form its column takes (SQLSTATE {})"
        | "有值的格式不符合欄位（SQLSTATE {}）"
        | "有值的格式不符合字段（SQLSTATE {}）";
    DB_REFUSAL_RULE = "db.refusal_rule":
        "the row breaks a rule of the database (SQLSTATE {})"
        | "此列資料違反資料庫規則（SQLSTATE {}）"
        | "此行数据违反数据库规则（SQLSTATE {}）";
    DB_REFUSAL_VALUE = "db.refusal_value":
        "a value does not fit its column (SQLSTATE {})"
        | "有值不適用於其欄位（SQLSTATE {}）"
        | "有值不适用于其字段（SQLSTATE {}）";
    EVENT_FILE_MUST_BE_OBJECT = "event_file.must_be_object":
        "must be an object"
        | "須為物件"
        | "须为对象";
    EVENT_FILE_SECTION_PROBLEM = "event_file.section_problem":
        "section {}: {}"
        | "組別 {}：{}"
        | "组别 {}：{}";
    EVENT_FILE_RULE = "event_file.rule":
        " (rule {})"
        | "（規則 {}）"
        | "（规则 {}）";
    EVENT_FILE_NOT_ID = "event_file.not_id":
        "\"{}\" is not an id"
        | "「{}」不是編號"
        | "“{}”不是编号";
    EVENT_FILE_MUST_ID_UUID_STRING = "event_file.must_id_uuid_string":
        "must be an id (a UUID string)"
        | "須為編號（UUID 字串）"
        | "须为编号（UUID 字符串）";
    EVENT_FILE_IMPORT_WHO = "event_file.import_who":
        "only admins and the chief arbiters of a tournament on this server may import an event file"
        | "只有管理員與本伺服器賽事的裁判長可以匯入賽事檔案"
        | "只有管理员与本服务器赛事的裁判长可以导入赛事文件";
    EVENT_FILE_IMPORT_BUSY = "event_file.import_busy":
        "another event file is being imported on this server; try again when it is done"
        | "本伺服器正在匯入另一個賽事檔案，請在完成後再試"
        | "本服务器正在导入另一个赛事文件，请在完成后再试";
    EVENT_FILE_TOO_LARGE = "event_file.too_large":
        "the event file is larger than {} MiB"
        | "賽事檔案超過 {} MiB"
        | "赛事文件超过 {} MiB";
    EVENT_FILE_ROUND_BEYOND = "event_file.round_beyond":
        "section {}: round {} is beyond the section's {} rounds"
        | "組別 {}：第 {} 輪超出本組別的 {} 輪"
        | "组别 {}：第 {} 轮超出本组别的 {} 轮";
    EVENT_FILE_ROUND_GAP = "event_file.round_gap":
        "section {}: round {} is there without round {}"
        | "組別 {}：有第 {} 輪卻沒有第 {} 輪"
        | "组别 {}：有第 {} 轮却没有第 {} 轮";
    EVENT_FILE_ROUND_NOT_COMPLETED = "event_file.round_not_completed":
        "section {}: round {} is not completed, but round {} follows it"
        | "組別 {}：第 {} 輪尚未完成，卻已有第 {} 輪"
        | "组别 {}：第 {} 轮尚未完成，却已有第 {} 轮";
    EVENT_FILE_TWICE_IN_ROUND = "event_file.twice_in_round":
        "section {}: round {}: {} is on board {} and on board {}"
        | "組別 {}：第 {} 輪：{} 同時在第 {} 台與第 {} 台"
        | "组别 {}：第 {} 轮：{} 同时在第 {} 台与第 {} 台";
    EVENT_FILE_BOARD_GAME = "event_file.board_game":
        "section {}: round {}, board {}: the board's game is missing or is not between the board's players"
        | "組別 {}：第 {} 輪第 {} 台：該台的對局缺失，或對局雙方不是該台的棋手"
        | "组别 {}：第 {} 轮第 {} 台：该台的对局缺失，或对局双方不是该台的棋手";
    EVENT_FILE_COMPLETED_OPEN = "event_file.completed_open":
        "section {}: round {} is completed, but board {} has no result"
        | "組別 {}：第 {} 輪已完成，但第 {} 台沒有成績"
        | "组别 {}：第 {} 轮已完成，但第 {} 台没有成绩";
    EVENT_FILE_PAIRED_RESULT = "event_file.paired_result":
        "section {}: round {} is not published, but board {} has a result"
        | "組別 {}：第 {} 輪尚未公布，但第 {} 台已有成績"
        | "组别 {}：第 {} 轮尚未公布，但第 {} 台已有成绩";
    EVENT_FILE_PUBLISHED_ALL_IN = "event_file.published_all_in":
        "section {}: round {} is published with every result in (it would be completed)"
        | "組別 {}：第 {} 輪已公布且成績全部輸入（應為已完成）"
        | "组别 {}：第 {} 轮已公布且成绩全部输入（应为已完成）";
    EVENT_FILE_RESULT_UNREPORTED = "event_file.result_unreported":
        "section {}: round {}, board {}: the result and the entered result disagree (one is missing)"
        | "組別 {}：第 {} 輪第 {} 台：成績與輸入的成績不一致（缺少其一）"
        | "组别 {}：第 {} 轮第 {} 台：成绩与输入的成绩不一致（缺少其一）";
    EVENT_FILE_SECTION_STATUS = "event_file.section_status":
        "section {}: its status ({}) does not fit its rounds"
        | "組別 {}：其狀態（{}）與其輪次不符"
        | "组别 {}：其状态（{}）与其轮次不符";
    DESK_SECTION_HAS_NO_FEE = "desk.section_has_no_fee":
        "this section has no fee tiers"
        | "此組別沒有收費級別"
        | "此组别没有收费级别";
    DESK_MORE_THAN_HELD = "desk.more_than_held":
        "is more than is held ({})"
        | "超過已收金額（{}）"
        | "超过已收金额（{}）";
    DESK_NOTHING_WAS_PAID_THERE = "desk.nothing_was_paid_there":
        "nothing was paid: there is nothing to refund"
        | "尚未收款，無可退費"
        | "尚未收款，无可退费";
    DESK_ENTRY_LEDGER_ALREADY_VOIDED = "desk.entry_ledger_already_voided":
        "this entry of the ledger is already voided"
        | "此收支紀錄已作廢"
        | "此收支记录已作废";
    DESK_DOUBLES_TEAM_S_PLAYERS = "desk.doubles_team_s_players":
        "a doubles team's players are corrected under members"
        | "雙人隊的棋手資料請在隊員欄位更正"
        | "双人队的棋手资料请在队员栏位更正";
    DESK_DOUBLES_TEAM_HAS_PLAYERS = "desk.doubles_team_has_players":
        "a doubles team has {} players: send both"
        | "雙人隊有 {} 名棋手：請兩人都送出"
        | "双人队有 {} 名棋手：请两人都提交";
    DESK_ONLY_DOUBLES_TEAMS_HAVE = "desk.only_doubles_teams_have":
        "only doubles teams have members"
        | "只有雙人隊才有隊員"
        | "只有双人队才有队员";
    NUMBERS_NOT_IN_RATING_ORDER = "numbers.not_in_rating_order":
        "the starting numbers are not in rating order, which this section's round 1 follows: renumber the entrants first (Entrants tab › Renumber), or set round 1 numbering to registration order"
        | "序號未按等級分排列，而本組第一輪依等級分編排：請先重新編號（參賽者頁 › 重新編號），或將第一輪序號改為按報名順序"
        | "序号未按等级分排列，而本组第一轮依等级分编排：请先重新编号（参赛者页 › 重新编号），或将第一轮序号改为按报名顺序";
    NUMBERS_NOT_DRAWN = "numbers.not_drawn":
        "the starting numbers have not been drawn by lot, as this section's round 1 numbering says: draw them first (Entrants tab › Renumber)"
        | "序號尚未抽籤，而本組第一輪序號應以抽籤決定：請先抽籤（參賽者頁 › 重新編號）"
        | "序号尚未抽签，而本组第一轮序号应以抽签决定：请先抽签（参赛者页 › 重新编号）";
    NUMBERS_FIXED = "numbers.fixed":
        "starting numbers are fixed once round 1 is paired"
        | "第一輪編排後序號即固定"
        | "第一轮编排后序号即固定";
    STALE_ENTRANT = "stale.entrant":
        "the entrant was changed meanwhile (it is now at change {}; you saw change {}); reload and try again"
        | "參賽者資料已被他人更改（版本 {}，你送出 {}）；請重新載入再試"
        | "参赛者资料已被他人更改（版本 {}，你提交 {}）；请重新加载再试";
    TEAM_RESULT_PER_BOARD = "team.result_per_board":
        "a team match's result is entered board by board (its games), not for the whole match"
        | "團體賽對局的成績須按台次（每盤）輸入，而非整場"
        | "团体赛对局的成绩须按台次（每盘）输入，而非整场";
    TEAM_NOT_TEAM_SECTION = "team.not_team_section":
        "this section is not a team section"
        | "此組別並非團體組"
        | "此组别并非团体组";
    TEAM_ROSTER_TOO_FEW = "team.roster_too_few":
        "the roster has {} player(s); the section plays {} boards"
        | "名單只有 {} 名隊員；本組每場 {} 台"
        | "名单只有 {} 名队员；本组每场 {} 台";
    TEAM_ROSTER_TOO_MANY = "team.roster_too_many":
        "the roster has {} players; at most {} (boards and reserves)"
        | "名單有 {} 名隊員；最多 {} 名（台數加替補）"
        | "名单有 {} 名队员；最多 {} 名（台数加替补）";
    TEAM_PLAYER_TWICE = "team.player_twice":
        "this player is named twice, or is already on another team of the section"
        | "此隊員重複列出，或已在本組另一隊"
        | "此队员重复列出，或已在本组另一队";
    TEAM_UNKNOWN_PLAYER = "team.unknown_player":
        "no such player in this tournament"
        | "本賽事沒有此棋手"
        | "本赛事没有此棋手";
    TEAM_NOT_ON_ROSTER = "team.not_on_roster":
        "this player is not on the team's roster"
        | "此棋手不在本隊名單內"
        | "此棋手不在本队名单内";
    TEAM_LINEUP_ORDER = "team.lineup_order":
        "the line-up must keep roster (board) order: a reserve plays below the players listed before"
        | "出場名單須依名單（台次）順序：替補須排在名單中較前隊員之下"
        | "出场名单须依名单（台次）顺序：替补须排在名单中较前队员之下";
    TEAM_LINEUP_TOO_LONG = "team.lineup_too_long":
        "the line-up names {} players for {} boards"
        | "出場名單列出 {} 名隊員，但只有 {} 台"
        | "出场名单列出 {} 名队员，但只有 {} 台";
    TEAM_LINEUP_CLOSED = "team.lineup_closed":
        "round {} is already published: the line-up can no longer be changed by the captain"
        | "第 {} 輪已公佈：隊長不能再更改出場名單"
        | "第 {} 轮已公布：队长不能再更改出场名单";
    TEAM_LINEUP_PLAYED = "team.lineup_played":
        "the match already has results: its line-up can no longer be changed"
        | "此場已有成績：不能再更改出場名單"
        | "此场已有成绩：不能再更改出场名单";
    TEAM_LINEUP_ROUND_OVER = "team.lineup_round_over":
        "round {} is over: its line-ups can no longer be changed"
        | "第 {} 輪已結束：不能再更改出場名單"
        | "第 {} 轮已结束：不能再更改出场名单";
    TEAM_CAPTAIN_POSITION = "team.captain_position":
        "the captain's position must be one of the roster's (1 to {})"
        | "隊長位置須為名單內的位置（1 至 {}）"
        | "队长位置须为名单内的位置（1 至 {}）";
    TEAM_HAS_GAMES = "team.has_games":
        "the team has played: withdraw it instead of deleting it"
        | "此隊已有對局：請改為退出，不能刪除"
        | "此队已有对局：请改为退出，不能删除";
    TEAM_BOARDS_FIXED = "team.boards_fixed":
        "the number of boards and reserves is fixed once round 1 is paired"
        | "第一輪編排後不能更改台數及替補人數"
        | "第一轮编排后不能更改台数及替补人数";
    TEAM_NO_GAME = "team.no_game":
        "this match has no board {}"
        | "此場沒有第 {} 台"
        | "此场没有第 {} 台";
    TEAM_FORFEIT_SIDE = "team.forfeit_side":
        "say which team forfeits: red, black or both"
        | "請指明哪隊棄權：紅方、黑方或雙方"
        | "请指明哪队弃权：红方、黑方或双方";
    TEAM_ENTERED_AT_DESK = "team.entered_at_desk":
        "teams are entered at the desk with their roster"
        | "隊伍須連同名單在報到處登記"
        | "队伍须连同名单在报到处登记";
    TEAM_REGISTRATION_NEEDS_TEAM = "team.registration_needs_team":
        "a team section takes a team: give its name and its roster in board order"
        | "團體組須以隊伍報名：請填隊名及按台次排列的名單"
        | "团体组须以队伍报名：请填队名及按台次排列的名单";
    TEAM_REGISTRATION_NEW_PLAYERS = "team.registration_new_players":
        "a registration names its players; players already in the event are linked at the desk"
        | "報名須填寫隊員姓名；已在賽事中的棋手由報到處連結"
        | "报名须填写队员姓名；已在赛事中的棋手由报到处链接";
    REPORT_GAME_ONLY_TEAM_KEY = "report.game_only_team_key":
        "only a team's key names the board it reports; a code reports its own game"
        | "只有隊伍密鑰須指明台次；報告碼只報告其本身的對局"
        | "只有队伍密钥须指明台次；报告码只报告其本身的对局";
    REPORT_CHOOSE_BOARD = "report.choose_board":
        "choose the board of the match you report (1 = top board)"
        | "請選擇要報告的台次（1 = 第一台）"
        | "请选择要报告的台次（1 = 第一台）";
    TEAM_ADD_WITH_ROSTER = "team.add_with_roster":
        "this is a team section: add a team with its roster (POST /api/v1/sections/{id}/teams)"
        | "此為團體組：請連同名單新增隊伍"
        | "此为团体组：请连同名单新增队伍";
    NOT_FOUND_TEAM = "not_found.team":
        "no such team"
        | "沒有此隊"
        | "没有此队";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_with_values_is_rendered_with_the_values_kept() {
        assert_eq!(
            CHECK_BETWEEN.with(&[&1, &20]).render(Lang::ZhHant),
            "須介於 1 與 20 之間"
        );
        assert_eq!(
            STATE_ROUND_STILL_HAS_BOARD
                .with(&[&3, &2])
                .render(Lang::ZhHans),
            "第 3 轮仍有 2 台未有成绩；请先输入再编排下一轮"
        );
        assert_eq!(
            CHECK_BETWEEN.with(&[&1, &20]).to_string(),
            "must be between 1 and 20"
        );
    }

    #[test]
    fn values_are_never_read_as_templates() {
        assert_eq!(
            STATE_NO_ENTRANT_HAS_NUMBER.with(&[&"{}"]).en(),
            "no entrant has the number {}"
        );
    }

    #[test]
    fn a_message_about_a_named_field_keeps_the_name_and_the_inner_code() {
        let message = Msg::field("boards[0].black", CHECK_REQUIRED.msg());
        assert_eq!(message.render(Lang::ZhHans), "boards[0].black: 必填");
        assert_eq!(message.en(), "boards[0].black: is required");
        assert_eq!(message.code(), "check.required");
    }

    #[test]
    fn a_list_is_rendered_part_by_part() {
        let list = Msg::list([CHECK_REQUIRED.msg(), CHECK_NOT_EMAIL.msg()]);
        assert_eq!(list.render(Lang::ZhHant), "必填；不是有效的電郵地址");
        assert_eq!(list.en(), "is required; is not an email address");
        assert_eq!(list.code(), "several");
        assert_eq!(Msg::list([CHECK_REQUIRED.msg()]).code(), "check.required");
    }

    #[test]
    fn a_nested_message_is_rendered_in_the_same_language() {
        let message = TIE_FALLS_INSIDE_TIE_TIEBREAK
            .msg()
            .and(TIE_KNOCKOUT_CUT_OFF.msg())
            .and_value("A, B");
        assert!(message
            .render(Lang::ZhHant)
            .starts_with("淘汰賽晉級線 落在"));
        assert!(message
            .en()
            .starts_with("the knockout cut-off falls inside"));
    }

    #[test]
    fn every_text_has_the_same_number_of_values_in_each_language() {
        for Text {
            key,
            en,
            hant,
            hans,
        } in ALL
        {
            let n = en.matches("{}").count();
            assert_eq!(hant.matches("{}").count(), n, "{key}");
            assert_eq!(hans.matches("{}").count(), n, "{key}");
            assert!(
                !en.is_empty() && !hant.is_empty() && !hans.is_empty(),
                "{key}"
            );
        }
    }

    #[test]
    fn keys_are_unique() {
        let mut keys = std::collections::BTreeSet::new();
        for text in ALL {
            assert!(keys.insert(text.key), "{} is defined twice", text.key);
        }
    }
}
