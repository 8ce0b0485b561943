//! User-interface languages and the message catalogue (zh-Hant, zh-Hans, en). Templates never
//! hold UI text: they look keys up here.

use serde::{Deserialize, Serialize};

// The dashboard's texts live in a second sorted table (`i18n/admin.rs`) so that the public
// pages and the dashboard can add texts without editing the same lines.
mod admin;
pub mod messages;

pub use messages::{Msg, Text};

/// A UI language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    /// Traditional Chinese (繁體中文).
    #[serde(rename = "zh-Hant")]
    ZhHant,
    /// Simplified Chinese (简体中文).
    #[serde(rename = "zh-Hans")]
    ZhHans,
    /// English.
    #[serde(rename = "en")]
    En,
}

impl Lang {
    /// Every language, in switcher order.
    pub const ALL: [Lang; 3] = [Lang::ZhHant, Lang::ZhHans, Lang::En];

    /// The BCP 47 tag (`zh-Hant`, `zh-Hans`, `en`), also the `lang` HTML attribute.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::ZhHant => "zh-Hant",
            Lang::ZhHans => "zh-Hans",
            Lang::En => "en",
        }
    }

    /// The language's own name, for the switcher.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::ZhHant => "繁體中文",
            Lang::ZhHans => "简体中文",
            Lang::En => "English",
        }
    }

    /// Reads a tag as given in `?lang=` or a cookie (exact tags, case-insensitive).
    pub fn from_tag(tag: &str) -> Option<Lang> {
        match tag.trim().to_ascii_lowercase().as_str() {
            "zh-hant" | "zh-tw" | "zh-hk" | "zh-mo" => Some(Lang::ZhHant),
            "zh-hans" | "zh-cn" | "zh-sg" | "zh" => Some(Lang::ZhHans),
            "en" => Some(Lang::En),
            t if t.starts_with("en-") => Some(Lang::En),
            t if t.starts_with("zh-hant") => Some(Lang::ZhHant),
            t if t.starts_with("zh-hans") => Some(Lang::ZhHans),
            _ => None,
        }
    }

    /// Picks the best language from an `Accept-Language` header (by q-value, then order).
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(u32, usize, Lang)> = None;
        for (index, part) in header.split(',').enumerate() {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("").trim();
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            // q-values have at most three decimals: compare them as integers.
            let q = (q.clamp(0.0, 1.0) * 1000.0).round() as u32;
            if q == 0 {
                continue;
            }
            if let Some(lang) = Lang::from_tag(tag) {
                if best.is_none_or(|(bq, bi, _)| q > bq || (q == bq && index < bi)) {
                    best = Some((q, index, lang));
                }
            }
        }
        best.map(|(_, _, lang)| lang)
    }

    /// The language for a request: `?lang=`, then the `lang` cookie, then `Accept-Language`,
    /// then the event's default.
    pub fn negotiate(
        query: Option<&str>,
        cookie: Option<&str>,
        accept: Option<&str>,
        default: Lang,
    ) -> Lang {
        query
            .and_then(Lang::from_tag)
            .or_else(|| cookie.and_then(Lang::from_tag))
            .or_else(|| accept.and_then(Lang::from_accept_language))
            .unwrap_or(default)
    }
}

/// Looks UI text up in one language.
#[derive(Debug, Clone, Copy)]
pub struct Tr {
    /// The language.
    pub lang: Lang,
}

impl Tr {
    /// The text for `key`; the key itself when the catalogue lacks it (a test keeps that from
    /// happening for the keys we ship).
    pub fn t(&self, key: &str) -> &'static str {
        // The main catalogue first, then the dashboard's (a key lives in exactly one; a test
        // checks that).
        match text(key) {
            Some(text) => text.get(self.lang),
            None => {
                tracing::warn!(key, "missing UI text");
                "?"
            }
        }
    }

    /// A stored word (a payment method, a status) in this language: `{prefix}.{word}` from
    /// the catalogue, or the word itself when it has none (a method typed by hand).
    pub fn word(&self, prefix: &str, word: &str) -> String {
        let key = format!("{prefix}.{word}");
        if text(&key).is_some() {
            self.t(&key).to_string()
        } else {
            word.to_string()
        }
    }

    /// A message in this language.
    pub fn msg(&self, message: &Msg) -> String {
        message.render(self.lang)
    }

    /// The text for `key` with `{}` replaced by `value` ("Round {}" → "Round 3", "第{}輪").
    pub fn fmt(&self, key: &str, value: impl std::fmt::Display) -> String {
        self.t(key).replacen("{}", &value.to_string(), 1)
    }

    /// [`Tr::fmt_n`] with two values (for templates).
    pub fn fmt2(
        &self,
        key: &str,
        first: impl std::fmt::Display,
        second: impl std::fmt::Display,
    ) -> String {
        self.fmt_n(key, &[&first, &second])
    }

    /// The text for `key` with each `{}` replaced by the next of `values` in order ("Board {}:
    /// {} is already on board {}"); values are copied in as they are, never read as a template.
    pub fn fmt_n(&self, key: &str, values: &[&dyn std::fmt::Display]) -> String {
        let mut out = String::new();
        let mut values = values.iter();
        let mut pieces = self.t(key).split("{}").peekable();
        while let Some(piece) = pieces.next() {
            out.push_str(piece);
            if pieces.peek().is_some() {
                if let Some(value) = values.next() {
                    out.push_str(&value.to_string());
                }
            }
        }
        out
    }

    /// The `lang` attribute value.
    pub fn tag(&self) -> &'static str {
        self.lang.tag()
    }
}

/// One catalogue entry: (key, en, zh-Hant, zh-Hans).
type Entry = (&'static str, &'static str, &'static str, &'static str);

/// Binary search of a sorted catalogue.
/// The page text (or message) with `key` as a message, to be rendered in the page's
/// language where it is shown.
pub fn ui(key: &str) -> Msg {
    match text(key) {
        Some(text) => text.msg(),
        None => {
            tracing::warn!(key, "missing UI text");
            Msg::shown("?")
        }
    }
}

/// [`ui`] with values for its `{}`.
pub fn ui_with(key: &str, values: &[&dyn std::fmt::Display]) -> Msg {
    match text(key) {
        Some(text) => text.with(values),
        None => ui(key),
    }
}

/// The text with `key`: one key space for the page texts (both tables) and the messages.
pub fn text(key: &str) -> Option<Text> {
    lookup(CATALOGUE, key)
        .or_else(|| lookup(admin::ADMIN_CATALOGUE, key))
        .map(|(key, en, hant, hans)| Text {
            key,
            en,
            hant,
            hans,
        })
        .or_else(|| messages::by_key(key))
}

fn lookup(table: &'static [Entry], key: &str) -> Option<Entry> {
    table
        .binary_search_by(|(k, ..)| (*k).cmp(key))
        .ok()
        .map(|i| table[i])
}

/// (key, en, zh-Hant, zh-Hans), sorted by key (binary search; a test checks the order).
static CATALOGUE: &[(&str, &str, &str, &str)] = &[
    ("absence.absent", "absent", "缺席", "缺席"),
    ("absence.full", "full-point bye", "請假（記全分）", "请假（记全分）"),
    ("absence.half", "half-point bye", "請假（記半分）", "请假（记半分）"),
    ("absence.pairing", "bye", "輪空", "轮空"),
    ("absence.zero", "zero-point bye", "請假（不計分）", "请假（不计分）"),
    ("app.name", "arbiter", "arbiter 編排系統", "arbiter 编排系统"),
    ("app.tagline", "Swiss-system tournaments for Xiangqi, Jieqi and Banqi", "象棋、揭棋、暗棋積分編排賽事管理", "象棋、揭棋、暗棋积分编排赛事管理"),
    ("bracket.best_of", "Matches are best of {} games", "每場比賽 {} 局", "每场比赛 {} 局"),
    ("bracket.champion", "Champion", "冠軍", "冠军"),
    ("bracket.decided_by.armageddon", "decided by an armageddon game", "以絕殺局決勝", "以绝杀局决胜"),
    ("bracket.decided_by.lot", "decided by lot", "抽籤決定", "抽签决定"),
    ("bracket.decided_by.rapid", "decided by rapid games", "以快棋加賽決勝", "以快棋加赛决胜"),
    ("bracket.decided_by.regular", "decided in the regular games", "於正式對局決勝", "于正式对局决胜"),
    ("bracket.final", "Final", "決賽", "决赛"),
    ("bracket.none", "This section has no knockout stage.", "本組別沒有淘汰賽階段。", "本组别没有淘汰赛阶段。"),
    ("bracket.quarter", "Quarter-finals", "八強賽", "八强赛"),
    ("bracket.round_of", "Round of {}", "{} 強賽", "{} 强赛"),
    ("bracket.semi", "Semi-finals", "準決賽", "半决赛"),
    ("bracket.tbd", "to be decided", "待定", "待定"),
    ("bracket.third", "3rd-place match", "季軍賽", "季军赛"),
    ("bracket.tiebreak", "Tiebreak games", "加賽", "加赛"),
    ("calendar.download", "Download the calendar (.ics)", "下載行事曆（.ics）", "下载日历（.ics）"),
    ("calendar.subscribe", "Subscribe in your calendar", "在行事曆中訂閱", "在日历中订阅"),
    ("col.black", "Black", "黑方", "黑方"),
    ("col.board", "Board", "台次", "台次"),
    ("col.club", "Club", "單位", "单位"),
    ("col.currency", "Currency", "貨幣", "货币"),
    ("col.members", "Players", "隊員", "队员"),
    ("col.name", "Name", "姓名", "姓名"),
    ("col.opponent", "Opponent", "對手", "对手"),
    ("col.points", "Points", "積分", "积分"),
    ("col.rank", "Rank", "名次", "名次"),
    ("col.rating", "Rating", "等級分", "等级分"),
    ("col.red", "Red", "紅方", "红方"),
    ("col.result", "Result", "結果", "结果"),
    ("col.round", "Round", "輪次", "轮次"),
    ("col.side", "Side", "先後手", "先后手"),
    ("col.start_no", "No.", "序號", "序号"),
    ("col.status", "Status", "狀態", "状态"),
    ("colour.black_short", "B", "黑", "黑"),
    ("colour.red_short", "R", "紅", "红"),
    ("crosstable.legend", "Each cell: opponent's line number, colour (R = Red, B = Black) and the points the game gave (win / draw / loss: {}; + forfeit win, − forfeit loss).", "每格：對手行號、執子（紅／黑）及該局得分（勝／和／負：{}；+ 對手棄權，− 棄權負）。", "每格：对手行号、执子（红／黑）及该局得分（胜／和／负：{}；+ 对手弃权，− 弃权负）。"),
    ("dashboard.empty", "No tournaments yet.", "尚無賽事。", "尚无赛事。"),
    ("dashboard.logged_in_as", "Logged in as", "目前登入：", "当前登录："),
    ("dashboard.title", "Dashboard", "管理頁面", "管理页面"),
    ("desk.new_tournament", "New tournament", "建立賽事", "创建赛事"),
    ("entrant.withdrawn", "withdrawn", "已退賽", "已退赛"),
    ("entrants.count", "{} entrants", "共 {} 名", "共 {} 名"),
    ("entrants.empty", "No entrants yet.", "尚無參賽者。", "尚无参赛者。"),
    ("entry_type.doubles", "Doubles", "雙人", "双人"),
    ("entry_type.individual", "Individual", "個人", "个人"),
    ("error.bad_form", "The form could not be read", "無法讀取表單", "无法读取表单"),
    ("error.csrf", "This form has expired or did not come from this site. Go back, reload the page and try again.", "此表單已過期或並非來自本網站。請返回並重新載入頁面後再試。", "此表单已过期或并非来自本网站。请返回并刷新页面后再试。"),
    ("error.forbidden", "Not allowed", "不允許此操作", "不允许此操作"),
    ("error.form_content_type", "The form must be sent as application/x-www-form-urlencoded.", "表單須以 application/x-www-form-urlencoded 格式送出。", "表单须以 application/x-www-form-urlencoded 格式提交。"),
    ("error.form_encoding", "The form was not sent as UTF-8 text; reload the page and send it again.", "表單並非以 UTF-8 文字送出，請重新載入頁面後再送出。", "表单并非以 UTF-8 文字提交，请重新加载页面后再提交。"),
    ("error.form_invalid", "Some fields are missing or malformed", "部分欄位缺漏或格式錯誤", "部分字段缺失或格式错误"),
    ("error.form_too_large", "The form is too large.", "表單內容過大。", "表单内容过大。"),
    ("error.internal", "Internal server error. Please try again later.", "伺服器內部錯誤，請稍後再試。", "服务器内部错误，请稍后再试。"),
    ("error.not_found", "Page not found", "找不到頁面", "找不到页面"),
    ("error.signed_in_as", "You are signed in as {}; ask the chief arbiter for the role this needs, or sign in with another account.", "你目前以 {} 登入；請向裁判長申請所需的角色，或以其他帳號登入。", "你目前以 {} 登录；请向裁判长申请所需的角色，或以其他账号登录。"),
    ("error.title", "Something went wrong", "發生錯誤", "发生错误"),
    ("find.empty", "Type a name or a starting number.", "請輸入姓名或序號。", "请输入姓名或序号。"),
    ("find.label", "Find me (name or number)", "找我（姓名或序號）", "找我（姓名或序号）"),
    ("find.none", "No entrant matches this search.", "找不到符合的參賽者。", "找不到符合的参赛者。"),
    ("find.several", "Several entrants match; choose yours.", "有多位參賽者符合，請選擇。", "有多位参赛者符合，请选择。"),
    ("find.submit", "Find", "搜尋", "查找"),
    ("find.title", "Find a player", "查找選手", "查找选手"),
    ("find.too_long", "The search is too long (at most 100 characters).", "搜尋內容太長（最多 100 個字元）。", "搜索内容太长（最多 100 个字符）。"),
    ("fouls.n", "{} foul(s)", "犯規 {}", "犯规 {}"),
    ("fouls.sides", "fouls: Red {}, Black {}", "犯規：紅方 {}、黑方 {}", "犯规：红方 {}、黑方 {}"),
    ("game.banqi", "Banqi", "暗棋", "暗棋"),
    ("game.jieqi", "Jieqi", "揭棋", "揭棋"),
    ("game.xiangqi", "Xiangqi", "象棋", "象棋"),
    ("gender.f", "female", "女", "女"),
    ("gender.m", "male", "男", "男"),
    ("gender.unset", "not given", "不填", "不填"),
    ("gender.x", "other", "其他", "其他"),
    ("home.empty", "No tournaments yet. An arbiter can create one from the dashboard.", "尚無賽事。裁判可於管理頁面建立賽事。", "尚无赛事。裁判可在管理页面创建赛事。"),
    ("home.title", "Tournaments", "賽事", "赛事"),
    ("keypage.bye", "Round {}: you have a bye.", "第 {} 輪：你輪空。", "第 {} 轮：你轮空。"),
    ("keypage.card", "Your key", "你的密鑰", "你的密钥"),
    ("keypage.check_in", "Check in", "報到", "报到"),
    ("keypage.check_in_closed", "Self check-in is not open now; check in at the desk.", "目前不開放自行報到；請到服務台報到。", "目前不开放自行报到；请到服务台报到。"),
    ("keypage.check_out", "Undo check-in", "取消報到", "取消报到"),
    ("keypage.checked_in", "You are checked in.", "你已報到。", "你已报到。"),
    ("keypage.done.in", "Checked in. Good luck!", "已報到，祝你好運！", "已报到，祝你好运！"),
    ("keypage.done.out", "Your check-in is undone.", "已取消報到。", "已取消报到。"),
    ("keypage.history", "Your rounds", "你的各輪", "你的各轮"),
    ("keypage.keep_private", "This page is yours: do not share its address.", "此頁屬於你本人：請勿分享網址。", "此页属于你本人：请勿分享网址。"),
    ("keypage.no_board", "No game for you in the current round yet.", "本輪暫無你的對局。", "本轮暂无你的对局。"),
    ("keypage.not_checked_in", "You are not checked in.", "你尚未報到。", "你尚未报到。"),
    ("keypage.opponent", "Opponent", "對手", "对手"),
    ("keypage.standing", "Rank {}, {} points", "第 {} 名，{} 分", "第 {} 名，{} 分"),
    ("keypage.team_board", "Board of the match (the result as Red and Black of that board)", "台次（結果以該台紅黑方計）", "台次（结果以该台红黑方计）"),
    ("keypage.team_side", "your team plays {}", "本隊執{}", "本队执{}"),
    ("keypage.title", "My page", "我的頁面", "我的页面"),
    ("keypage.you_play", "You play", "你執", "你执"),
    ("ko.capture.capturer_sees", "The capturing player may look at a captured hidden piece, then lays it face down", "吃子方可翻看被吃的暗子，然後反轉放置", "吃子方可翻看被吃的暗子，然后反转放置"),
    ("ko.capture.face_down", "Captured pieces are turned face down at once; neither side may look", "被吃的棋子須即時反轉，雙方均不能觀看", "被吃的棋子须即时反转，双方均不能观看"),
    ("ko.captured", "Captured hidden pieces", "被吃暗子", "被吃暗子"),
    ("ko.kind.armageddon", "armageddon game", "絕殺局", "绝杀局"),
    ("ko.kind.rapid", "rapid tiebreak game", "快棋加賽", "快棋加赛"),
    ("ko.kind.regular", "regular game", "正式對局", "正式对局"),
    ("ko.next", "Next game", "下一局", "下一局"),
    ("ko.score.tiebreak", "tiebreak {}–{}", "加賽 {}–{}", "加赛 {}–{}"),
    ("ko.setups.back", "Back to the bracket", "返回對陣表", "返回对阵表"),
    ("ko.setups.every_match", "every match of the round", "本輪各場通用", "本轮各场通用"),
    ("ko.setups.none", "No set-up has been drawn yet.", "尚未產生任何佈子。", "尚未产生任何布子。"),
    ("ko.setups.note", "Each knockout game's hidden-piece set-up is drawn before the game and its SHA-256 commitment published here. The set-up and its salt follow once the match is decided (with duplicate set-ups, once every match of the round is), and your browser checks them against the commitment.", "每局淘汰賽的暗子佈局均於對局前產生，並在此公佈其 SHA-256 承諾值。該場對賽分出勝負後（同一佈局則待該輪各場完結後）公開佈局及鹽值，瀏覽器會自動與承諾值核對。", "每局淘汰赛的暗子布局均于对局前产生，并在此公布其 SHA-256 承诺值。该场对赛分出胜负后（同一布局则待该轮各场完结后）公开布局及盐值，浏览器会自动与承诺值核对。"),
    ("ko.setups.secret", "secret until revealed", "公開前保密", "公开前保密"),
    ("ko.setups.title", "Knockout set-ups", "淘汰賽佈子", "淘汰赛布子"),
    ("ko.slips", "Match slips", "對局記錄單", "对局记录单"),
    ("ko.slips.none", "No game of this round is due.", "本輪沒有待下的對局。", "本轮没有待下的对局。"),
    ("ko.stage", "Stage", "階段", "阶段"),
    ("ko.stages", "Rules per stage", "各階段規則", "各阶段规则"),
    ("ko.tiebreak.armageddon", "armageddon ({})", "絕殺局（{}）", "绝杀局（{}）"),
    ("ko.tiebreak.lot", "lot", "抽籤", "抽签"),
    ("ko.tiebreak.rapid", "up to {} rapid game(s) ({})", "最多 {} 局快棋（{}）", "最多 {} 局快棋（{}）"),
    ("ko.tiebreaks", "Tiebreak games", "加賽", "加赛"),
    ("ko.time_control", "Time control", "用時", "用时"),
    ("login.failed", "Wrong username or password.", "帳號或密碼錯誤。", "用户名或密码错误。"),
    ("login.password", "Password", "密碼", "密码"),
    ("login.submit", "Log in", "登入", "登录"),
    ("login.title", "Arbiter login", "裁判登入", "裁判登录"),
    ("login.too_many", "Too many attempts. Wait a few minutes and try again.", "嘗試次數過多，請稍候幾分鐘再試。", "尝试次数过多，请稍候几分钟再试。"),
    ("login.username", "Username", "帳號", "用户名"),
    ("login.username_required", "Enter your username.", "請輸入帳號。", "请输入用户名。"),
    ("mail.confirm.subject", "{}: your registration", "{}：報名確認", "{}：报名确认"),
    ("mail.fee_due", "Fee due: {}.", "應繳費用：{}。", "应缴费用：{}。"),
    ("mail.fee_paid", "Fee: {} (paid).", "費用：{}（已繳）。", "费用：{}（已缴）。"),
    ("mail.hello", "Hello {},", "{} 您好：", "{} 您好："),
    ("mail.how_to_pay", "How to pay:", "繳費方式：", "缴费方式："),
    ("mail.key_link", "Your own page (your key: do not share it):", "你的個人頁面（即你的密鑰，請勿分享）：", "你的个人页面（即你的密钥，请勿分享）："),
    ("mail.status.confirmed", "Your place in {} is confirmed.", "你在 {} 的名額已確認。", "你在 {} 的名额已确认。"),
    ("mail.status.pending", "We received your registration for {}; your place is held once the fee is paid.", "我們已收到你在 {} 的報名；繳費後名額即予保留。", "我们已收到你在 {} 的报名；缴费后名额即予保留。"),
    ("mail.status.waitlisted", "You are on the waiting list of {}.", "你已列入 {} 的候補名單。", "你已列入 {} 的候补名单。"),
    ("mail.status.withdrawn", "Your registration for {} is withdrawn.", "你在 {} 的報名已撤回。", "你在 {} 的报名已撤回。"),
    ("mail.unsubscribe", "You get these e-mails because you asked for them when you registered.", "你在報名時選擇接收這些電郵。", "你在报名时选择接收这些邮件。"),
    ("mail.unsubscribe_link", "Unsubscribe", "取消訂閱", "取消订阅"),
    ("nav.account", "Account", "帳號", "账号"),
    ("nav.dashboard", "Dashboard", "管理頁面", "管理页面"),
    ("nav.home", "Home", "首頁", "首页"),
    ("nav.language", "Language", "語言", "语言"),
    ("nav.login", "Arbiter login", "裁判登入", "裁判登录"),
    ("nav.logout", "Log out", "登出", "退出登录"),
    ("pairings.absent", "Not paired this round", "本輪未編排", "本轮未编排"),
    ("pairings.empty", "No boards in this round.", "本輪沒有對局。", "本轮没有对局。"),
    ("pairings.points_before", "Points before this round", "本輪前積分", "本轮前积分"),
    ("player.draft", "not yet published", "尚未公佈", "尚未公布"),
    ("player.no_current", "No round is being played.", "目前沒有進行中的輪次。", "目前没有进行中的轮次。"),
    ("player.no_rounds", "No round published yet.", "尚未公佈任何輪次。", "尚未公布任何轮次。"),
    ("player.opponent", "Opponent:", "對手：", "对手："),
    ("player.rounds", "Round by round", "各輪成績", "各轮成绩"),
    ("player.running", "Score", "累計積分", "累计积分"),
    ("player.this_round", "This round", "本輪", "本轮"),
    ("player.tiebreaks", "Standing and tiebreaks", "名次及對比分", "名次及对比分"),
    ("playoff.amount", "Value", "價值", "价值"),
    ("playoff.help", "The section champions play for the overall title, in matches like a knockout.", "各組冠軍以淘汰賽形式爭奪總冠軍。", "各组冠军以淘汰赛形式争夺总冠军。"),
    ("playoff.prizes", "Grand-final prizes", "總決賽獎項", "总决赛奖项"),
    ("playoff.title", "Grand final", "總決賽", "总决赛"),
    ("print.award", "Award", "獎項", "奖项"),
    ("print.back", "Back", "返回", "返回"),
    ("print.button", "Print", "列印", "打印"),
    ("print.by_name", "Pairing list by name", "對陣表（依姓名）", "对阵表（按姓名）"),
    ("print.final_place", "Final place", "最終名次", "最终名次"),
    ("print.no_prizes", "This section has no prizes.", "本組別未設獎項。", "本组别未设奖项。"),
    ("print.prize_for", "Place or category", "名次或類別", "名次或类别"),
    ("print.prizes", "Prize list", "得獎名單", "得奖名单"),
    ("print.prizes_not_final", "The final ranking is not known yet: the winners are listed once every stage is over.", "最終名次尚未確定：所有賽程結束後列出得獎者。", "最终名次尚未确定：所有赛程结束后列出得奖者。"),
    ("print.view", "Print view", "列印版", "打印版"),
    ("prize.female", "Best woman", "最佳女子", "最佳女子"),
    ("prize.male", "Best man", "最佳男子", "最佳男子"),
    ("prize.member", "Best member", "最佳會員", "最佳会员"),
    ("prize.mixed_doubles", "Best mixed doubles", "最佳混雙", "最佳混双"),
    ("prize.place", "Place {}", "第{}名", "第{}名"),
    ("push.blocked", "Notifications are blocked for this site; allow them in the browser's settings.", "此網站的通知已被封鎖；請在瀏覽器設定中允許。", "此网站的通知已被屏蔽；请在浏览器设置中允许。"),
    ("push.failed", "Could not turn notifications on; try again.", "無法開啟通知，請再試一次。", "无法开启通知，请再试一次。"),
    ("push.off", "Turn notifications off", "關閉通知", "关闭通知"),
    ("push.on", "Notify me when my pairing is out", "對局公佈時通知我", "对局公布时通知我"),
    ("push.pairing", "Board {}: you play {} against {}.", "第 {} 台：你執{}，對手 {}。", "第 {} 台：你执{}，对手 {}。"),
    ("push.rescheduled", "Round {} now starts at {}.", "第 {} 輪改於 {} 開始。", "第 {} 轮改于 {} 开始。"),
    ("push.starts", "Starts at {}.", "開始時間：{}。", "开始时间：{}。"),
    ("push.stopped", "Notifications are off on this browser.", "此瀏覽器的通知已關閉。", "此浏览器的通知已关闭。"),
    ("push.subscribed", "This browser is notified when your pairing is out.", "對局公佈時，此瀏覽器會收到通知。", "对局公布时，此浏览器会收到通知。"),
    ("push.title", "{} · round {}", "{} · 第 {} 輪", "{} · 第 {} 轮"),
    ("push.unsupported", "This browser cannot receive notifications (on an iPhone, add this page to the home screen first).", "此瀏覽器無法接收通知（iPhone 請先將此頁加入主畫面）。", "此浏览器无法接收通知（iPhone 请先将此页添加到主屏幕）。"),
    ("rec.back_to_bracket", "Back to the bracket", "返回淘汰賽表", "返回淘汰赛表"),
    ("rec.back_to_pairings", "Back to the pairings", "返回對陣表", "返回对阵表"),
    ("rec.board", "Board diagram", "棋盤", "棋盘"),
    ("rec.board_title", "Board {}", "第 {} 台", "第 {} 台"),
    ("rec.download_pgn", "Download the record (PGN)", "下載棋譜（PGN）", "下载棋谱（PGN）"),
    ("rec.face_down_note", "Face-down pieces stay face down until the round's set-up is revealed.", "本輪布局公開前，暗子仍以背面顯示。", "本轮布局公开前，暗子仍以背面显示。"),
    ("rec.first", "Start position", "開局", "开局"),
    ("rec.game_n", "Game {}", "第 {} 局", "第 {} 局"),
    ("rec.last", "Last move", "最後一步", "最后一步"),
    ("rec.moves_withheld", "The moves are shown once the round is over and its set-up revealed.", "本輪結束、布局公開後才顯示著法。", "本轮结束、布局公开后才显示着法。"),
    ("rec.next", "Next move", "下一步", "下一步"),
    ("rec.no_moves", "No moves recorded.", "尚無著法。", "尚无着法。"),
    ("rec.notation", "Notation", "記譜法", "记谱法"),
    ("rec.notation.banqi", "Banqi notation (b2=K, b2-b3)", "暗棋記法（b2=K、b2-b3）", "暗棋记法（b2=K、b2-b3）"),
    ("rec.notation.chinese", "Chinese (炮二平五)", "中文（炮二平五）", "中文（炮二平五）"),
    ("rec.notation.iccs", "ICCS (h2e2)", "ICCS 座標（h2e2）", "ICCS 坐标（h2e2）"),
    ("rec.notation.wxf", "WXF (C2.5)", "WXF（C2.5）", "WXF（C2.5）"),
    ("rec.prev", "Previous move", "上一步", "上一步"),
    ("rec.records", "Game records", "棋譜", "棋谱"),
    ("rec.replay", "Game replay", "棋局重播", "棋局重播"),
    ("rec.status.black_won", "Black has won.", "黑方勝。", "黑方胜。"),
    ("rec.status.checkmated", "The side to move is checkmated.", "輪走方被將死。", "轮走方被将死。"),
    ("rec.status.draw", "Drawn by the 25-move count.", "二十五步未吃子，和局。", "二十五步未吃子，和局。"),
    ("rec.status.red_won", "Red has won.", "紅方勝。", "红方胜。"),
    ("rec.status.stalemated", "The side to move has no legal move (stalemate: a loss).", "輪走方無子可動（困斃，判負）。", "轮走方无子可动（困毙，判负）。"),
    ("rec.view", "Game record", "棋譜", "棋谱"),
    ("register.address", "Address", "地址", "地址"),
    ("register.another", "Register someone else", "再報名一位", "再报名一位"),
    ("register.birth_date", "Birth date", "出生日期", "出生日期"),
    ("register.choose", "Choose…", "請選擇…", "请选择…"),
    ("register.choose_section", "Choose a section.", "請選擇組別。", "请选择组别。"),
    ("register.club", "Club or school", "單位／學校", "单位／学校"),
    ("register.done_title", "Registration received", "報名已收到", "报名已收到"),
    ("register.email", "Email", "電子郵件", "电子邮箱"),
    ("register.email_off", "E-mail notifications are off on this server.", "本伺服器未開啟電郵通知。", "本服务器未开启邮件通知。"),
    ("register.email_opt_in", "E-mail me the confirmation and each round's pairing", "以電郵寄送報名確認及每輪對局", "以邮件发送报名确认及每轮对局"),
    ("register.fee_due", "Fee due", "應繳費用", "应缴费用"),
    ("register.fee_none", "No fee.", "免費。", "免费。"),
    ("register.fee_tier", "Entry fee", "收費級別", "收费级别"),
    ("register.gender", "Gender", "性別", "性别"),
    ("register.how_to_pay", "How to pay", "付款方式", "付款方式"),
    ("register.key", "Your player key", "你的選手密鑰", "你的选手密钥"),
    ("register.key_once", "Your own page: your board, colour and opponent each round, check-in and result reports. Keep this address (bookmark it or take a screenshot): it is shown only this once, and it is yours alone. Lost? The desk can print it again.", "你的個人頁面：每輪的台次、執子顏色與對手、報到與回報成績。請保存此網址（加入書籤或截圖）：它只顯示這一次，只屬於你。遺失了？可請報到台重印。", "你的个人页面：每轮的台次、执子颜色与对手、报到与回报成绩。请保存此网址（加入书签或截图）：它只显示这一次，只属于你。遗失了？可请报到台重印。"),
    ("register.link", "Register", "報名", "报名"),
    ("register.member", "Member of the organising club", "主辦單位會員", "主办单位会员"),
    ("register.name", "Name", "姓名", "姓名"),
    ("register.no_sections", "Registration is not open.", "目前未開放報名。", "目前未开放报名。"),
    ("register.not_a_date", "Enter a date as YYYY-MM-DD.", "請以 YYYY-MM-DD 格式輸入日期。", "请以 YYYY-MM-DD 格式输入日期。"),
    ("register.not_a_number", "Enter a whole number.", "請輸入整數。", "请输入整数。"),
    ("register.partner", "Partner (doubles)", "搭檔（雙人賽）", "搭档（双人赛）"),
    ("register.partner_name", "Partner's name", "搭檔姓名", "搭档姓名"),
    ("register.pay_at_desk", "Pay at the desk before round 1.", "請於第一輪前在報到台付款。", "请于第一轮前在报到台付款。"),
    ("register.pay_first", "Your place is held once the fee is paid.", "繳費後才保留名額。", "缴费后才保留名额。"),
    ("register.phone", "Phone", "電話", "电话"),
    ("register.privacy", "Contact details are seen by the arbiters only; the public list shows name, club and status.", "聯絡資料僅供裁判查閱；公開名單只顯示姓名、單位及狀態。", "联系资料仅供裁判查阅；公开名单只显示姓名、单位及状态。"),
    ("register.qr", "Scan to register on your phone", "以手機掃描即可報名", "用手机扫描即可报名"),
    ("register.rating", "Rating (if any)", "等級分（如有）", "等级分（如有）"),
    ("register.school_grade", "School grade (student sections)", "年級（學生組）", "年级（学生组）"),
    ("register.section", "Section", "組別", "组别"),
    ("register.submit", "Register", "送出報名", "提交报名"),
    ("register.tier_other_section", "This fee tier belongs to another section than the one chosen", "此收費級別屬於另一組別，請選擇所報組別的級別", "此收费级别属于另一组别，请选择所报组别的级别"),
    ("register.title", "Registration", "報名", "报名"),
    ("register.too_many", "Too many registrations from this connection. Please try again later or register at the desk.", "此連線報名次數過多，請稍後再試或到現場報名。", "此连接报名次数过多，请稍后再试或到现场报名。"),
    ("register.waitlist_position", "waitlist place {}", "候補第 {} 位", "候补第 {} 位"),
    ("register.waiver", "I have read and accept the terms above.", "本人已閱讀並同意以上條款。", "本人已阅读并同意以上条款。"),
    ("registration.cancelled", "cancelled", "已取消", "已取消"),
    ("registration.confirmed", "confirmed", "報名成功", "报名成功"),
    ("registration.pending", "pending: awaiting payment", "待確認：等候繳費", "待确认：等候缴费"),
    ("registration.waitlisted", "on the waitlist", "候補中", "候补中"),
    ("registration.withdrawn", "withdrawn", "已退出", "已退出"),
    ("report.by", "{} reported", "{}回報", "{}回报"),
    ("report.code", "Code on your result slip", "成績單上的代碼", "成绩单上的代码"),
    ("report.code_help", "Type the code printed on your result slip, or scan its QR code.", "請輸入成績單上印的代碼，或掃描其 QR 碼。", "请输入成绩单上印的代码，或扫描其二维码。"),
    ("report.confirm_as", "Confirm this result as {}", "以{}身分確認此結果", "以{}身份确认此结果"),
    ("report.counts_when", "Nothing you report counts until the arbiter accepts it.", "回報的結果須經裁判接受後方才生效。", "回报的结果须经裁判接受后方才生效。"),
    ("report.done.accepted", "Both players agree: the result is recorded.", "雙方一致：結果已登錄。", "双方一致：结果已登记。"),
    ("report.done.record", "The record is saved. Thank you!", "棋譜已儲存，謝謝！", "棋谱已保存，谢谢！"),
    ("report.done.sent", "Your report is sent. It counts once the arbiter accepts it.", "已送出回報，裁判接受後生效。", "已提交回报，裁判接受后生效。"),
    ("report.foul_rule", "{} fouls in one game lose it.", "一局犯規 {} 次判負。", "一局犯规 {} 次判负。"),
    ("report.fouls", "Fouls", "犯規", "犯规"),
    ("report.i_am", "I am", "我是", "我是"),
    ("report.open", "Open", "開啟", "打开"),
    ("report.or_other", "Or report a different result", "或回報不同結果", "或回报不同结果"),
    ("report.record.moves", "Moves, in order", "著法（依序）", "着法（按顺序）"),
    ("report.record.notation", "Notation", "記譜法", "记谱法"),
    ("report.record.send", "Send the record", "送出棋譜", "提交棋谱"),
    ("report.record.stored", "This game's record is in.", "此局棋譜已登錄。", "此局棋谱已登记。"),
    ("report.record.title", "The game's record (optional)", "本局棋譜（選填）", "本局棋谱（选填）"),
    ("report.recorded", "Result recorded:", "已登錄結果：", "已登记结果："),
    ("report.result.black_forfeits", "Black forfeits", "黑方棄權", "黑方弃权"),
    ("report.result.black_wins", "Black won", "黑勝", "黑胜"),
    ("report.result.double_forfeit", "Both forfeit", "雙方棄權", "双方弃权"),
    ("report.result.draw", "Draw", "和棋", "和棋"),
    ("report.result.red_forfeits", "Red forfeits", "紅方棄權", "红方弃权"),
    ("report.result.red_wins", "Red won", "紅勝", "红胜"),
    ("report.send", "Send report", "送出回報", "提交回报"),
    ("report.state.agreed", "Both players agree; waiting for the arbiter.", "雙方一致，待裁判接受。", "双方一致，待裁判接受。"),
    ("report.state.disputed", "The reports disagree; the arbiter decides.", "雙方回報不一致，由裁判裁定。", "双方回报不一致，由裁判裁定。"),
    ("report.state.none", "Nobody has reported this game yet.", "尚無人回報此局。", "尚无人回报此局。"),
    ("report.state.waiting", "Waiting for the opponent to confirm.", "等待對手確認。", "等待对手确认。"),
    ("report.state.waiting_you", "Your opponent has reported this game: confirm it, or report what happened.", "對手已回報此局：請確認，或回報實際結果。", "对手已回报此局：请确认，或回报实际结果。"),
    ("report.title", "Report a result", "回報成績", "回报成绩"),
    ("result.black_forfeits", "Black forfeits", "黑方棄權", "黑方弃权"),
    ("result.black_wins", "Black wins", "黑勝", "黑胜"),
    ("result.double_forfeit", "Both forfeit", "雙方棄權", "双方弃权"),
    ("result.double_loss", "Both lose", "雙負", "双负"),
    ("result.draw", "Draw", "和", "和"),
    ("result.red_forfeits", "Red forfeits", "紅方棄權", "红方弃权"),
    ("result.red_wins", "Red wins", "紅勝", "红胜"),
    ("role.admin", "administrator", "管理員", "管理员"),
    ("role.arbiter", "arbiter", "裁判", "裁判"),
    ("role.chief_arbiter", "chief arbiter", "裁判長", "裁判长"),
    ("role.scorer", "scorer", "記分員", "记分员"),
    ("role.user", "user", "使用者", "用户"),
    ("round.n", "Round {}", "第 {} 輪", "第 {} 轮"),
    ("round.next_starts", "Round {} starts {}", "第 {} 輪開始時間：{}", "第 {} 轮开始时间：{}"),
    ("round.planned_start", "Planned start", "預定開始", "预定开始"),
    ("round.starts", "Starts {}", "開始時間 {}", "开始时间 {}"),
    ("round_status.completed", "Completed", "已完成", "已完成"),
    ("round_status.paired", "Paired (not yet published)", "已編排（未公佈）", "已编排（未公布）"),
    ("round_status.published", "Published", "已公佈", "已公布"),
    ("screen.bracket", "Knockout", "淘汰賽", "淘汰赛"),
    ("screen.clock", "Round clock", "本輪計時", "本轮计时"),
    ("screen.countdown", "Round {} starts in", "第 {} 輪開始倒數", "第 {} 轮开始倒计时"),
    ("screen.ko_in_play", "Matches in play", "進行中的對賽", "进行中的对赛"),
    ("screen.link", "Big screen", "大螢幕", "大屏幕"),
    ("screen.pairings", "Pairings by name", "對陣（依姓名）", "对阵（按姓名）"),
    ("screen.place", "Place {}", "第 {} 名", "第 {} 名"),
    ("screen.podium", "Champions", "冠軍與前三名", "冠军与前三名"),
    ("screen.results", "Latest results", "最新結果", "最新结果"),
    ("screen.standings", "Standings", "排名", "排名"),
    ("screen.standings_provisional", "Provisional standings (results missing)", "暫定排名（仍有成績未登錄）", "暂定排名（仍有成绩未登记）"),
    ("screen.team_matches", "Matches", "各場對賽", "各场对赛"),
    ("screen.team_standings", "Team standings", "團體排名", "团体排名"),
    ("screen.time_left", "Time left in the round", "本輪剩餘時間", "本轮剩余时间"),
    ("section.bracket", "Bracket", "淘汰賽", "淘汰赛"),
    ("section.crosstable", "Crosstable", "成績總表", "成绩总表"),
    ("section.entrants", "Entrants", "參賽名單", "参赛名单"),
    ("section.now", "Now", "現在", "现在"),
    ("section.pages", "Section pages", "組別頁面", "组别页面"),
    ("section.standings", "Standings", "排名", "排名"),
    ("section_status.cancelled", "Cancelled", "已取消", "已取消"),
    ("section_status.finished", "Finished", "已結束", "已结束"),
    ("section_status.open", "Open", "開放", "开放"),
    ("section_status.running", "In progress", "進行中", "进行中"),
    ("setups.back", "Back to the pairings", "返回對局編排", "返回对局编排"),
    ("setups.how", "Anyone can check that the set-up was fixed before play: the SHA-256 of the set-up text, a colon and the salt is the commitment published before the round.", "任何人都可核實布局於開賽前已定：布局文字加冒號再加鹽值的 SHA-256，即為賽前公佈的承諾值。", "任何人都可核实布局于开赛前已定：布局文字加冒号再加盐值的 SHA-256，即为赛前公布的承诺值。"),
    ("setups.how_title", "How to verify", "如何核實", "如何核实"),
    ("setups.mismatch", "Does not match the commitment!", "與承諾值不符！", "与承诺值不符！"),
    ("setups.revealed_note", "The round is complete: its set-ups are revealed with their salt.", "本輪已完賽：布局連同鹽值已公開。", "本轮已完赛：布局连同盐值已公开。"),
    ("setups.secret_note", "The set-ups stay secret until the round is complete; their commitments are published now.", "布局在本輪完賽前保密；現先公佈其承諾值。", "布局在本轮完赛前保密；现先公布其承诺值。"),
    ("setups.title", "Set-ups", "暗子布局", "暗子布局"),
    ("setups.verified", "Verified: matches the commitment.", "已核實：與承諾值相符。", "已核实：与承诺值相符。"),
    ("slip.arbiter", "Arbiter", "裁判", "裁判"),
    ("slip.fouls", "Fouls", "犯規", "犯规"),
    ("slip.report_here", "Report the result by phone, each player with their own side's code:", "以手機回報成績，雙方各用本方的代碼：", "以手机回报成绩，双方各用本方的代码："),
    ("slip.signature", "Signature", "簽名", "签名"),
    ("slip.title", "Result slips", "成績單", "成绩单"),
    ("standings.after_round", "After round {}", "第 {} 輪後", "第 {} 轮后"),
    ("standings.no_rounds", "No rounds played yet.", "尚未開始比賽。", "尚未开始比赛。"),
    ("standings.provisional", "provisional: results missing", "暫定：仍有成績未登錄", "暂定：仍有成绩未登记"),
    ("standings.provisional_short", "provisional", "暫定", "暂定"),
    ("standings.tie_lot", "Tied after every tiebreak; order drawn by lot", "破同分後仍並列，順序由抽籤決定", "破同分后仍并列，顺序由抽签决定"),
    ("standings.tie_lot_short", "lot", "籤", "签"),
    ("standings.tie_manual", "Tied after every tiebreak; order set by the arbiter", "破同分後仍並列，順序由裁判排定", "破同分后仍并列，顺序由裁判排定"),
    ("standings.tie_manual_short", "arb.", "裁", "裁"),
    ("status.cancelled", "Cancelled", "已取消", "已取消"),
    ("status.draft", "Draft", "籌備中", "筹备中"),
    ("status.finished", "Finished", "已結束", "已结束"),
    ("status.registration", "Registration open", "報名中", "报名中"),
    ("status.running", "In progress", "進行中", "进行中"),
    ("system.chinese", "Chinese Swiss", "積分編排", "积分编排"),
    ("system.dutch", "FIDE Dutch", "FIDE 荷蘭制", "FIDE 荷兰制"),
    ("system.round_robin", "Round robin", "循環賽", "循环赛"),
    ("table.date", "Date", "日期", "日期"),
    ("table.game", "Game", "棋種", "棋种"),
    ("table.name", "Name", "名稱", "名称"),
    ("table.status", "Status", "狀態", "状态"),
    ("table.venue", "Venue", "地點", "地点"),
    ("team_page.board_n", "Board {}", "第 {} 台", "第 {} 台"),
    ("team_page.board_points", "Board points", "局分", "局分"),
    ("team_page.board_rankings", "Board rankings", "台次排名", "台次排名"),
    ("team_page.captains", "Captains", "隊長簽名", "队长签名"),
    ("team_page.cell_title", "Board points {} : {} · match points {}", "局分 {} : {} · 場分 {}", "局分 {} : {} · 场分 {}"),
    ("team_page.codes", "Report codes (each player's own, in the order of the names)", "報告碼（依姓名順序，每人一組）", "报告码（依姓名顺序，每人一组）"),
    ("team_page.codes_help", "Each player reports their own board's result with the code of their side (at /r/ followed by the code), or with their team's key; the other side confirms.", "每位棋手以己方的報告碼（/r/ 加報告碼）或隊伍密鑰報告本台結果，由對方確認。", "每位棋手以己方的报告码（/r/ 加报告码）或队伍密钥报告本台结果，由对方确认。"),
    ("team_page.cross_legend", "Each cell: the opposing team's line number, the colour on board 1 (R = Red, B = Black) and the board points scored in the match; * the match was forfeited.", "每格：對手隊行號、第一台執子（紅／黑）及本場所得局分；* 整場棄權。", "每格：对手队行号、第一台执子（红／黑）及本场所得局分；* 整场弃权。"),
    ("team_page.empty_seat", "empty seat", "缺席", "缺席"),
    ("team_page.games", "Games", "局數", "局数"),
    ("team_page.match_n", "Match {}", "第 {} 場", "第 {} 场"),
    ("team_page.match_points", "Match points", "場分", "场分"),
    ("team_page.match_score", "Match score", "比分", "比分"),
    ("team_page.match_slips", "Match slips", "對陣記分表", "对阵记分表"),
    ("team_page.min_games", "Ranked: players with at least {} games on the board", "排名：在該台下滿 {} 局的棋手", "排名：在该台下满 {} 局的棋手"),
    ("team_page.no_games", "No games on this board yet.", "該台尚無對局。", "该台尚无对局。"),
    ("team_page.performance", "Performance", "表現分", "表现分"),
    ("team_page.rounds_completed", "Rounds completed: {}", "已完成輪次：{}", "已完成轮次：{}"),
    ("team_rank.counted", "Counted members (place)", "計分隊員（名次）", "计分队员（名次）"),
    ("team_rank.incomplete", "fewer members than counted: ranked after the complete teams", "隊員不足計分人數，排在完整隊伍之後", "队员不足计分人数，排在完整队伍之后"),
    ("team_rank.label_note", "A team is the entrants who share a club (a club, a province or a nation).", "隊伍以棋手的單位劃分（俱樂部、省市或國家）。", "队伍以棋手的单位划分（俱乐部、省市或国家）。"),
    ("team_rank.members", "Members counted", "計分隊員數", "计分队员数"),
    ("team_rank.none", "No entrant has a club yet, so there are no teams.", "尚無棋手填寫單位，因此沒有隊伍。", "尚无棋手填写单位，因此没有队伍。"),
    ("team_rank.others", "Other members (place)", "其他隊員（名次）", "其他队员（名次）"),
    ("team_rank.places", "Sum of places", "名次之和", "名次之和"),
    ("team_rank.points", "Points", "總分", "总分"),
    ("team_rank.rule", "Rule", "計算方法", "计算方法"),
    ("team_rank.rule.chinese", "Chinese: total points of the best members", "中國規則：成績最好隊員的積分總和", "中国规则：成绩最好队员的积分总和"),
    ("team_rank.rule.wxf", "WXF: sum of the best members' places", "世界象棋聯合會規則：成績最好隊員的名次之和", "世界象棋联合会规则：成绩最好队员的名次之和"),
    ("team_rank.show", "Show", "顯示", "显示"),
    ("team_rank.team", "Team", "隊伍", "队伍"),
    ("team_rank.title", "Team ranking", "團體排名", "团体排名"),
    ("team_register.boards_reserves", "{} boards, {} reserves", "{} 台，{} 名替補", "{} 台，{} 名替补"),
    ("team_register.captain", "Captain (the team's contact)", "隊長（隊伍聯絡人）", "队长（队伍联络人）"),
    ("team_register.captain_board", "Does the captain play?", "隊長是否出賽？", "队长是否出赛？"),
    ("team_register.captain_not_playing", "No, the captain does not play", "否，隊長不出賽", "否，队长不出赛"),
    ("team_register.captain_plays", "Yes, as player {} of the roster", "是，為名單第 {} 名", "是，为名单第 {} 名"),
    ("team_register.club", "Club or federation", "單位（俱樂部、協會）", "单位（俱乐部、协会）"),
    ("team_register.desk_confirms", "The desk checks the roster and confirms the team; the captain then receives the team's key, which enters line-ups and reports the team's boards.", "報到處核對名單後確認隊伍；隊長隨即收到隊伍密鑰，用以提交出場名單及報告本隊各台結果。", "报到处核对名单后确认队伍；队长随即收到队伍密钥，用以提交出场名单及报告本队各台结果。"),
    ("team_register.link", "Registering a team? Use the team registration form.", "報名團體賽？請使用團體報名表。", "报名团体赛？请使用团体报名表。"),
    ("team_register.no_sections", "No team section takes registrations.", "目前沒有接受報名的團體組。", "目前没有接受报名的团体组。"),
    ("team_register.position", "Player {}", "第 {} 名隊員", "第 {} 名队员"),
    ("team_register.roster", "Roster in board order", "名單（按台次排列）", "名单（按台次排列）"),
    ("team_register.roster_help", "Board 1 first, then the other boards, then the reserves; leave the rows you do not need empty. The board order is fixed for the event.", "先填第一台，再填其餘各台，最後填替補；不需要的欄位請留空。台次順序全賽固定。", "先填第一台，再填其余各台，最后填替补；不需要的栏位请留空。台次顺序全赛固定。"),
    ("team_register.submit", "Register the team", "提交隊伍報名", "提交队伍报名"),
    ("team_register.team_name", "Team name", "隊名", "队名"),
    ("team_register.title", "Team registration", "團體報名", "团体报名"),
    ("team_tb.bc", "Board count: the results on board 1, then the next boards", "台次分：第一台成績，其次各台", "台次分：第一台成绩，其次各台"),
    ("team_tb.bh_gp", "Buchholz on board points: the opponents' board points", "對手局分之和", "对手局分之和"),
    ("team_tb.bh_mp", "Buchholz on match points: the opponents' match points", "對手分：對手場分之和", "对手分：对手场分之和"),
    ("team_tb.de", "Direct encounter between the tied teams", "直接對局", "直接对局"),
    ("team_tb.eggsb", "Extended game-game Sonneborn-Berger", "擴展局分索內伯恩-伯格分", "扩展局分索内伯恩-伯格分"),
    ("team_tb.gpts", "Board (game) points", "局分", "局分"),
    ("team_tb.mpts", "Match points", "場分", "场分"),
    ("team_tb.sb_gp", "Sonneborn-Berger on board points", "局分索內伯恩-伯格分", "局分索内伯恩-伯格分"),
    ("team_tb.sb_mp", "Sonneborn-Berger on match points", "場分索內伯恩-伯格分", "场分索内伯恩-伯格分"),
    ("team_tb.won", "Matches won", "勝場數", "胜场数"),
    ("team_tb_short.bc", "BC", "台次分", "台次分"),
    ("team_tb_short.bh_gp", "BH:GP", "對手局分", "对手局分"),
    ("team_tb_short.bh_mp", "BH:MP", "對手分", "对手分"),
    ("team_tb_short.de", "DE", "直接對局", "直接对局"),
    ("team_tb_short.eggsb", "EGGSB", "擴展索分", "扩展索分"),
    ("team_tb_short.gpts", "GPTS", "局分", "局分"),
    ("team_tb_short.mpts", "MPTS", "場分", "场分"),
    ("team_tb_short.sb_gp", "SB:GP", "局分索分", "局分索分"),
    ("team_tb_short.sb_mp", "SB:MP", "場分索分", "场分索分"),
    ("team_tb_short.won", "WON", "勝場", "胜场"),
    ("tiebreak.desc.BH", "the sum of the opponents' scores (FIDE; unplayed rounds count as the rules of the event say)", "所有對手積分之和（FIDE 規則；未賽輪次依競賽規程計）", "所有对手积分之和（FIDE 规则；未赛轮次依竞赛规程计）"),
    ("tiebreak.desc.BPG", "the number of games played with Black (more ranks higher)", "執後手（黑方）的對局數，多者在前", "执后手（黑方）的对局数，多者在前"),
    ("tiebreak.desc.BWG", "the number of games won with Black", "執後手（黑方）勝出的局數", "执后手（黑方）胜出的局数"),
    ("tiebreak.desc.CUT_EARLY", "the progressive score counted without the first rounds", "去除最初幾輪後的累進分", "去除最初几轮后的累进分"),
    ("tiebreak.desc.DE", "the games between the tied players decide", "同分棋手之間的對局結果決定名次", "同分棋手之间的对局结果决定名次"),
    ("tiebreak.desc.FOULS", "the number of technical fouls (fewer ranks higher)", "技術犯規次數，少者在前", "技术犯规次数，少者在前"),
    ("tiebreak.desc.LOT", "drawn by lot", "以抽籤決定", "以抽签决定"),
    ("tiebreak.desc.OPP", "the sum of the opponents' scores (Chinese rules)", "所有對手積分之和（中國規則）", "所有对手积分之和（中国规则）"),
    ("tiebreak.desc.PREV", "the scores after each earlier round compared, from the last backwards", "由最後一輪往前逐輪比較當時積分", "由最后一轮往前逐轮比较当时积分"),
    ("tiebreak.desc.PS", "the sum of the running scores after each round", "每輪後累計積分之和", "每轮后累计积分之和"),
    ("tiebreak.desc.RTNG", "the rating (higher ranks higher)", "等級分，高者在前", "等级分，高者在前"),
    ("tiebreak.desc.SB", "the scores of the opponents one beat, plus half of those one drew", "所勝對手積分之和加所和對手積分之半", "所胜对手积分之和加所和对手积分之半"),
    ("tiebreak.desc.WIN", "the number of wins, forfeit wins included", "勝局數（含對方棄權）", "胜局数（含对方弃权）"),
    ("tiebreak.desc.WON", "the number of games won over the board (forfeits excluded)", "實際下完並勝出的局數（不含棄權）", "实际下完并胜出的局数（不含弃权）"),
    ("tiebreak.help", "Tiebreak (see the event rules)", "對比分（見競賽規程）", "对比分（见竞赛规程）"),
    ("tiebreak.mod.cut", "without the lowest {}", "去掉最低 {} 名對手", "去掉最低 {} 名对手"),
    ("tiebreak.mod.first", "without the first {} round(s)", "去掉最初 {} 輪", "去掉最初 {} 轮"),
    ("tiebreak.mod.median", "without the highest and the lowest {}", "去掉最高及最低各 {} 名對手", "去掉最高及最低各 {} 名对手"),
    ("tiebreak.name.BH", "Buchholz", "布赫茲分", "布赫兹分"),
    ("tiebreak.name.BPG", "Games with Black", "後走局數", "后走局数"),
    ("tiebreak.name.BWG", "Wins with Black", "後勝局數", "后胜局数"),
    ("tiebreak.name.CUT_EARLY", "Progressive score without the first rounds", "去除前輪累進分", "去除前轮累进分"),
    ("tiebreak.name.DE", "Direct encounter", "直勝", "直胜"),
    ("tiebreak.name.FOULS", "Fouls (fewer ranks higher)", "犯規（少者在前）", "犯规（少者在前）"),
    ("tiebreak.name.LOT", "Lot", "抽籤", "抽签"),
    ("tiebreak.name.OPP", "Opponents' scores", "對手分", "对手分"),
    ("tiebreak.name.PREV", "Score after earlier rounds", "比較前輪積分", "比较前轮积分"),
    ("tiebreak.name.PS", "Progressive score", "累進分", "累进分"),
    ("tiebreak.name.RTNG", "Rating", "等級分", "等级分"),
    ("tiebreak.name.SB", "Sonneborn-Berger", "小分", "小分"),
    ("tiebreak.name.WIN", "Wins", "勝局數", "胜局数"),
    ("tiebreak.name.WON", "Games won over the board", "實勝局數", "实胜局数"),
    ("tiebreak.short.BH", "Buchholz", "布赫茲", "布赫兹"),
    ("tiebreak.short.BPG", "Black", "後走", "后走"),
    ("tiebreak.short.BWG", "Black wins", "後勝", "后胜"),
    ("tiebreak.short.CUT_EARLY", "Late prog.", "去前輪累進", "去前轮累进"),
    ("tiebreak.short.DE", "Direct", "直勝", "直胜"),
    ("tiebreak.short.FOULS", "Fouls", "犯規", "犯规"),
    ("tiebreak.short.LOT", "Lot", "抽籤", "抽签"),
    ("tiebreak.short.OPP", "Opp. score", "對手分", "对手分"),
    ("tiebreak.short.PREV", "Earlier", "前輪分", "前轮分"),
    ("tiebreak.short.PS", "Progressive", "累進分", "累进分"),
    ("tiebreak.short.RTNG", "Rating", "等級分", "等级分"),
    ("tiebreak.short.SB", "S-B", "小分", "小分"),
    ("tiebreak.short.WIN", "Wins", "勝局", "胜局"),
    ("tiebreak.short.WON", "Won OTB", "實勝", "实胜"),
    ("tournament.no_sections", "No sections yet.", "尚無組別。", "尚无组别。"),
    ("tournament.organiser", "Organiser", "主辦單位", "主办单位"),
    ("tournament.pages", "Pages", "頁面", "页面"),
    ("tournament.rounds", "Rounds", "輪數", "轮数"),
    ("tournament.sections", "Sections", "組別", "组别"),
    ("tournament.system", "Pairing system", "編排制度", "编排制度"),
    ("tournament.time_control", "Time control", "用時", "用时"),
    ("unsubscribe.ask", "Stop the e-mail of {} to {}?", "停止寄送 {} 給 {} 的電郵？", "停止发送 {} 给 {} 的邮件？"),
    ("unsubscribe.button", "Unsubscribe", "取消訂閱", "取消订阅"),
    ("unsubscribe.done", "{} will get no more e-mail from {}.", "{} 將不再收到 {} 的電郵。", "{} 将不再收到 {} 的邮件。"),
    ("unsubscribe.title", "E-mail notifications", "電郵通知", "邮件通知"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_is_sorted_and_complete() {
        for table in [CATALOGUE, admin::ADMIN_CATALOGUE] {
            for pair in table.windows(2) {
                assert!(
                    pair[0].0 < pair[1].0,
                    "{} must sort before {}",
                    pair[0].0,
                    pair[1].0
                );
            }
            for (key, en, hant, hans) in table {
                assert!(
                    !en.is_empty() && !hant.is_empty() && !hans.is_empty(),
                    "{key} lacks a language"
                );
            }
        }
        // A key is in one table only, so the fallback never hides a text.
        for (key, ..) in admin::ADMIN_CATALOGUE {
            assert!(
                lookup(CATALOGUE, key).is_none(),
                "{key} is in both catalogues"
            );
        }
        let mut keys = std::collections::BTreeSet::new();
        for key in CATALOGUE
            .iter()
            .chain(admin::ADMIN_CATALOGUE)
            .map(|(key, ..)| *key)
            .chain(messages::ALL.iter().map(|t| t.key))
        {
            assert!(keys.insert(key), "{key} is defined twice");
        }
        for text in messages::ALL {
            assert!(
                !text.en.is_empty() && !text.hant.is_empty() && !text.hans.is_empty(),
                "{} lacks a language",
                text.key
            );
        }
    }

    /// Every literal key a template looks up (`tr.t("…")`) is in the catalogue, and so is every
    /// value of the columns templates turn into keys (`game.…`, `status.…`, `role.…`).
    #[test]
    fn every_key_the_templates_use_exists() {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).expect("templates folder") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    out.push(path);
                }
            }
        }
        let mut files = Vec::new();
        walk(
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/templates")),
            &mut files,
        );
        let known = |key: &str| {
            lookup(CATALOGUE, key).is_some() || lookup(admin::ADMIN_CATALOGUE, key).is_some()
        };
        let mut missing = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("template");
            for call in ["tr.t(\"", "tr.fmt(\""] {
                for piece in text.split(call).skip(1) {
                    let key = piece.split('"').next().unwrap_or("");
                    if !known(key) {
                        missing.push(format!("{}: {key}", file.display()));
                    }
                }
            }
        }
        for key in [
            "game.xiangqi",
            "game.jieqi",
            "game.banqi",
            "status.draft",
            "status.registration",
            "status.running",
            "status.finished",
            "status.cancelled",
            "role.admin",
            "role.arbiter",
            "role.scorer",
            "system.chinese",
            "system.dutch",
            "system.round_robin",
            "section_status.open",
            "section_status.running",
            "section_status.finished",
            "section_status.cancelled",
            "round_status.paired",
            "round_status.published",
            "round_status.completed",
            "absence.half",
            "absence.zero",
            "absence.full",
            "absence.absent",
            "absence.pairing",
            "registration.pending",
            "registration.confirmed",
            "registration.waitlisted",
            "registration.withdrawn",
            "registration.cancelled",
            "entry_type.individual",
            "entry_type.doubles",
            "prize.female",
            "prize.male",
            "prize.mixed_doubles",
            "prize.member",
            "adm.payment.unpaid",
            "adm.payment.paid",
            "adm.payment.refund_due",
            "adm.payment.refunded",
        ] {
            if !known(key) {
                missing.push(key.to_string());
            }
        }
        // Every result has its words, and every result a player can report its own.
        let results = crate::vocab::GameResult::ALL.iter();
        let reported = crate::vocab::GameResult::ENTERED.iter();
        for key in results
            .map(|r| format!("result.{r}"))
            .chain(reported.map(|r| format!("report.result.{r}")))
        {
            if !known(&key) {
                missing.push(key);
            }
        }
        assert!(missing.is_empty(), "missing UI text: {missing:?}");
    }

    #[test]
    fn values_fill_the_placeholders_in_order_and_are_never_read_as_templates() {
        let tr = Tr { lang: Lang::ZhHant };
        assert_eq!(
            tr.fmt_n("adm.repair.error.twice", &[&7, &"{}", &3]),
            "第 7 台：{} 已在第 3 台。"
        );
        let en = Tr { lang: Lang::En };
        assert_eq!(
            en.fmt_n("adm.repair.error.twice", &[&7, &"3. Wang"]),
            "Board 7: 3. Wang is already on board ."
        );
    }

    #[test]
    fn accept_language_prefers_the_highest_quality() {
        assert_eq!(
            Lang::from_accept_language("en;q=0.5, zh-TW;q=0.9"),
            Some(Lang::ZhHant)
        );
        assert_eq!(
            Lang::from_accept_language("zh-CN,zh;q=0.9,en;q=0.8"),
            Some(Lang::ZhHans)
        );
        assert_eq!(Lang::from_accept_language("fr, de"), None);
        assert_eq!(
            Lang::negotiate(Some("en"), Some("zh-Hans"), None, Lang::ZhHant),
            Lang::En
        );
        assert_eq!(
            Lang::negotiate(None, None, None, Lang::ZhHant),
            Lang::ZhHant
        );
    }
}
