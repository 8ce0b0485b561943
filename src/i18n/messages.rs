//! The services' messages in the pages' languages. Services speak English (the JSON API's
//! language, stable for clients); a page shows the same message in the visitor's language by
//! matching it against these templates, where `{}` stands for a value copied through as is.
//! A message with no template here is shown in English rather than not at all.

use super::Lang;
use std::borrow::Cow;

/// `(English template, zh-Hant, zh-Hans)`; `{}` marks the same values in the same order.
const MESSAGES: &[(&str, &str, &str)] = &[
    // Field checks (service::check and the services' own rules).
    ("is required", "必填", "必填"),
    (
        "must be at most {} characters",
        "最多 {} 個字",
        "最多 {} 个字",
    ),
    (
        "must be between {} and {}",
        "須介於 {} 與 {} 之間",
        "须介于 {} 与 {} 之间",
    ),
    ("must be one of: {}", "須為以下之一：{}", "须为以下之一：{}"),
    (
        "is not an email address",
        "不是有效的電郵地址",
        "不是有效的电子邮箱地址",
    ),
    (
        "a doubles team needs exactly two members",
        "雙人隊須剛好兩名成員",
        "双人队须刚好两名成员",
    ),
    (
        "only doubles sections take members",
        "只有雙人組別才有隊員",
        "只有双人组别才有队员",
    ),
    (
        "only doubles sections take a partner",
        "只有雙人組別才需搭檔",
        "只有双人组别才需搭档",
    ),
    (
        "the waiver must be accepted to register",
        "須同意免責聲明方可報名",
        "须同意免责声明方可报名",
    ),
    ("choose a fee tier", "請選擇收費類別", "请选择收费类别"),
    (
        "must be a three-letter currency code such as CAD, HKD or TWD",
        "須為三個字母的貨幣代碼，例如 CAD、HKD 或 TWD",
        "须为三个字母的货币代码，例如 CAD、HKD 或 TWD",
    ),
    (
        "name at least two new sections",
        "請列出至少兩個新組別",
        "请列出至少两个新组别",
    ),
    (
        "must be YYYY-MM-DD",
        "格式須為 YYYY-MM-DD",
        "格式须为 YYYY-MM-DD",
    ),
    ("must be a whole number", "須為整數", "须为整数"),
    (
        "must be a power of two from 2 to 64",
        "須為 2 至 64 之間的 2 的冪",
        "须为 2 至 64 之间的 2 的幂",
    ),
    (
        "name 2 to 64 sections",
        "請列出 2 至 64 個組別",
        "请列出 2 至 64 个组别",
    ),
    (
        "give a place range or a category, not both",
        "請填名次範圍或類別，不可兩者皆填",
        "请填名次范围或类别，不可两者皆填",
    ),
    (
        "give a place range or a category",
        "請填名次範圍或類別",
        "请填名次范围或类别",
    ),
    (
        "must be at least place_from (both ≥ 1)",
        "不可小於起始名次（兩者皆 ≥ 1）",
        "不可小于起始名次（两者皆 ≥ 1）",
    ),
    (
        "a forfeited game has no fouls",
        "棄權的對局不記犯規",
        "弃权的对局不记犯规",
    ),
    (
        "is already on another board",
        "已排在另一台",
        "已排在另一台",
    ),
    ("give at least one board", "請至少填一台", "请至少填一台"),
    (
        "only one bye, on the last board",
        "只可有一個輪空，且排在最後一台",
        "只可有一个轮空，且排在最后一台",
    ),
    (
        "{} is not an entrant of this section",
        "{} 不是本組別的參賽者",
        "{} 不是本组别的参赛者",
    ),
    (
        "give either tiebreaks or preset, not both",
        "小分規則與預設只可擇一",
        "小分规则与预设只可择一",
    ),
    (
        "hidden-piece set-ups exist only for Jieqi and Banqi",
        "只有揭棋與暗棋才有暗子布局",
        "只有揭棋与暗棋才有暗子布局",
    ),
    (
        "is required (at most 100 characters)",
        "必填（最多 100 個字）",
        "必填（最多 100 个字）",
    ),
    (
        "must be a number of points between 0 and 100 with at most one decimal",
        "須為 0 至 100 之間、最多一位小數的分數",
        "须为 0 至 100 之间、最多一位小数的分数",
    ),
    (
        "must be after registration_opens_at",
        "須晚於報名開始時間",
        "须晚于报名开始时间",
    ),
    (
        "must not exceed cap",
        "不可超過名額上限",
        "不可超过名额上限",
    ),
    (
        "must satisfy win ≥ draw ≥ loss",
        "須符合 勝 ≥ 和 ≥ 負",
        "须符合 胜 ≥ 和 ≥ 负",
    ),
    (
        "is required (xiangqi, jieqi or banqi)",
        "必填（象棋、揭棋或暗棋）",
        "必填（象棋、揭棋或暗棋）",
    ),
    (
        "must be a TRF-26 code such as 600+3 or 5400+30",
        "須為 TRF-26 格式，例如 600+3 或 5400+30",
        "须为 TRF-26 格式，例如 600+3 或 5400+30",
    ),
    (
        "must not be before starts_on",
        "不可早於開始日期",
        "不可早于开始日期",
    ),
    (
        "must be an IANA time zone such as Asia/Hong_Kong or America/Toronto",
        "須為 IANA 時區，例如 Asia/Hong_Kong 或 America/Toronto",
        "须为 IANA 时区，例如 Asia/Hong_Kong 或 America/Toronto",
    ),
    ("has more than 20 rows", "超過 20 列", "超过 20 列"),
    (
        "the grand final is not decided yet (no playoff, or a match is still being played)",
        "總決賽尚未決出（未設總決賽，或仍有對局進行中）",
        "总决赛尚未决出（未设总决赛，或仍有对局进行中）",
    ),
    ("must not be below min", "不可小於最少人數", "不可小于最少人数"),
    (
        "follows a row without max (only the last row may leave it open)",
        "前一列沒有最多人數（只有最後一列可以不設上限）",
        "前一列没有最多人数（只有最后一列可以不设上限）",
    ),
    (
        "must be above the previous row's max (rows in order, not overlapping)",
        "須大於前一列的最多人數（各列依序排列、不可重疊）",
        "须大于前一列的最多人数（各列依序排列、不可重叠）",
    ),
    (
        "the table of rounds by entry count has no row for {} entrants; add one in the section's settings",
        "按人數定輪數的表格沒有 {} 人的一列；請在組別設定中補上",
        "按人数定轮数的表格没有 {} 人的一列；请在组别设置中补上",
    ),
    // Conflicts with the current state.
    (
        "the entrant is already withdrawn",
        "該參賽者已退賽",
        "该参赛者已退赛",
    ),
    (
        "the entrant is not withdrawn",
        "該參賽者未退賽",
        "该参赛者未退赛",
    ),
    (
        "choose at least one entrant to check in",
        "請至少選擇一名參賽者報到",
        "请至少选择一名参赛者报到",
    ),
    (
        "check in at most {} entrants at once",
        "一次最多報到 {} 名參賽者",
        "一次最多报到 {} 名参赛者",
    ),
    (
        "{} is withdrawn; re-admit them before checking them in",
        "{} 已退賽；請先恢復參賽再報到",
        "{} 已退赛；请先恢复参赛再报到",
    ),
    (
        "no entrant has the number {}",
        "沒有編號 {} 的參賽者",
        "没有编号 {} 的参赛者",
    ),
    ("the section is cancelled", "本組別已取消", "本组别已取消"),
    ("this section is cancelled", "本組別已取消", "本组别已取消"),
    (
        "the section is already cancelled",
        "本組別早已取消",
        "本组别早已取消",
    ),
    (
        "no game is due in this match",
        "本場對賽暫無待下的對局",
        "本场对赛暂无待下的对局",
    ),
    (
        "section {} has no entrants",
        "組別 {} 沒有參賽者",
        "组别 {} 没有参赛者",
    ),
    (
        "section {} is not finished",
        "組別 {} 尚未完賽",
        "组别 {} 尚未完赛",
    ),
    (
        "the Swiss stage is not complete ({} of {} rounds paired{}); finish it first",
        "瑞士制階段尚未完成（已編排 {} / {} 輪{}），請先完成",
        "瑞士制阶段尚未完成（已编排 {} / {} 轮{}），请先完成",
    ),
    (
        "the knockout of section {} is not finished",
        "組別 {} 的淘汰賽尚未完成",
        "组别 {} 的淘汰赛尚未完成",
    ),
    (
        "the players of this match are not known yet",
        "本場對賽的棋手尚未確定",
        "本场对赛的棋手尚未确定",
    ),
    (
        "this match is decided",
        "本場對賽已分勝負",
        "本场对赛已分胜负",
    ),
    (
        "this section already has a knockout stage",
        "本組別已有淘汰賽階段",
        "本组别已有淘汰赛阶段",
    ),
    (
        "this tournament already has a playoff",
        "本賽事已有附加賽",
        "本赛事已有附加赛",
    ),
    (
        "the final ranking is not known yet (a stage is still being played)",
        "最終名次尚未確定（仍有階段在進行）",
        "最终名次尚未确定（仍有阶段在进行）",
    ),
    (
        "a {} registration cannot be confirmed",
        "狀態為 {} 的報名不能確認",
        "状态为 {} 的报名不能确认",
    ),
    ("registration is closed", "報名已截止", "报名已截止"),
    (
        "registration is not open yet",
        "報名尚未開始",
        "报名尚未开始",
    ),
    (
        "round 1 is paired: the section can no longer be cancelled",
        "第 1 輪已編排，組別不能再取消",
        "第 1 轮已编排，组别不能再取消",
    ),
    (
        "the minimum of {} entries is reached ({} entrants)",
        "已達最低參賽人數 {}（現有 {} 人）",
        "已达最低参赛人数 {}（现有 {} 人）",
    ),
    (
        "the registration is already confirmed",
        "該報名已確認",
        "该报名已确认",
    ),
    (
        "the registration is already {}",
        "該報名已是 {}",
        "该报名已是 {}",
    ),
    (
        "the section has paired rounds: split it before round 1",
        "本組別已有編排的輪次，請於第 1 輪前分組",
        "本组别已有编排的轮次，请于第 1 轮前分组",
    ),
    (
        "the section is full; withdraw someone or raise the cap first",
        "本組別已滿額，請先讓人退出或提高名額",
        "本组别已满额，请先让人退出或提高名额",
    ),
    (
        "all {} rounds of this section are paired",
        "本組別全部 {} 輪均已編排",
        "本组别全部 {} 轮均已编排",
    ),
    (
        "at least two entrants must be available to pair a round",
        "至少要有兩名可出賽的參賽者才能編排",
        "至少要有两名可出赛的参赛者才能编排",
    ),
    (
        "no legal pairing exists: {}",
        "不存在合規的編排：{}",
        "不存在合规的编排：{}",
    ),
    (
        "only the last round ({}) can be unpaired",
        "只能取消最後一輪（第 {} 輪）的編排",
        "只能取消最后一轮（第 {} 轮）的编排",
    ),
    (
        "round {} has results: unpair it instead",
        "第 {} 輪已有成績，請改為取消編排",
        "第 {} 轮已有成绩，请改为取消编排",
    ),
    (
        "round {} has {} result(s); repeat with ?force=true to delete them with the pairing",
        "第 {} 輪已有 {} 個成績；確認後會連同編排一併刪除",
        "第 {} 轮已有 {} 个成绩；确认后会连同编排一并删除",
    ),
    (
        "round {} is {}: only a paired, unpublished round can be edited",
        "第 {} 輪狀態為 {}：只有已編排而未公佈的輪次可修改",
        "第 {} 轮状态为 {}：只有已编排而未公布的轮次可修改",
    ),
    (
        "round {} still has {} board(s) without a result; enter them before pairing the next round",
        "第 {} 輪仍有 {} 台未有成績；請先輸入再編排下一輪",
        "第 {} 轮仍有 {} 台未有成绩；请先输入再编排下一轮",
    ),
    (
        "the result was changed meanwhile (version {}, you sent {}); reload and try again",
        "成績已被他人更改（版本 {}，你送出的是 {}）；請重新載入再試",
        "成绩已被他人更改（版本 {}，你提交的是 {}）；请重新加载再试",
    ),
    (
        "the result was changed meanwhile by someone else; reload and try again",
        "成績已被他人更改；請重新載入再試",
        "成绩已被他人更改；请重新加载再试",
    ),
    (
        "this board is a bye: it has no result to enter",
        "此台為輪空，無成績可輸入",
        "此台为轮空，无成绩可输入",
    ),
    (
        "the pairing breaks {} rule(s); send \"confirm\": true to apply it anyway",
        "此編排違反 {} 條規則；確認後仍可套用",
        "此编排违反 {} 条规则；确认后仍可套用",
    ),
    // Credentials and access.
    (
        "wrong username or password",
        "用戶名稱或密碼錯誤",
        "用户名或密码错误",
    ),
    (
        "scorers cannot create tournaments",
        "記分員不能建立賽事",
        "记分员不能创建赛事",
    ),
    // Self-report (service::reports).
    (
        "no game to report has this code; check the code on your result slip",
        "沒有可用此代碼回報的對局；請核對成績單上的代碼",
        "没有可用此代码回报的对局；请核对成绩单上的代码",
    ),
    (
        "this game's result is already recorded; ask the arbiter to correct it",
        "此局結果已登錄；如需更正請洽裁判",
        "此局结果已登记；如需更正请联系裁判",
    ),
    (
        "nobody has reported this game",
        "尚無人回報此局",
        "尚无人回报此局",
    ),
    (
        "only one side has reported: the opponent has not confirmed",
        "只有一方回報：對手尚未確認",
        "只有一方回报：对手尚未确认",
    ),
    (
        "the players' reports disagree: enter the result yourself",
        "雙方回報不一致：請由裁判登錄結果",
        "双方回报不一致：请由裁判登记结果",
    ),
    (
        "publish the round before starting its clock",
        "請先公佈本輪對陣再開始計時",
        "请先公布本轮对阵再开始计时",
    ),
    (
        "the round is over: ask the arbiter to enter the record",
        "本輪已結束：請洽裁判登錄棋譜",
        "本轮已结束：请联系裁判登记棋谱",
    ),
    (
        "this game already has a record; ask the arbiter to correct it",
        "此局已有棋譜；如需更正請洽裁判",
        "此局已有棋谱；如需更正请联系裁判",
    ),
    // Things not found (`service::Error::NotFound`).
    ("action not found", "找不到該操作", "找不到该操作"),
    ("board not found", "找不到該台", "找不到该台"),
    ("bracket not found", "找不到對陣表", "找不到对阵表"),
    ("entrant not found", "找不到該參賽者", "找不到该参赛者"),
    (
        "knockout stage not found",
        "找不到淘汰賽階段",
        "找不到淘汰赛阶段",
    ),
    ("match not found", "找不到該場對賽", "找不到该场对赛"),
    ("playoff not found", "找不到附加賽", "找不到附加赛"),
    ("registration not found", "找不到該報名", "找不到该报名"),
    (
        "round not found",
        "找不到該輪（或尚未公佈）",
        "找不到该轮（或尚未公布）",
    ),
    ("set-up not found", "找不到該布局", "找不到该布局"),
    ("section not found", "找不到該組別", "找不到该组别"),
    ("tournament not found", "找不到該賽事", "找不到该赛事"),
    // The dashboard forms for byes, forbidden pairs, settings and the playoff.
    (
        "must differ from a",
        "須與另一位參賽者不同",
        "须与另一位参赛者不同",
    ),
    ("must differ from red", "須與紅方不同", "须与红方不同"),
    (
        "is not an entrant of this section",
        "不是本組別的參賽者",
        "不是本组别的参赛者",
    ),
    (
        "only one half- or full-point bye per entrant; ask for a zero-point bye",
        "每位參賽者只可申請一次半分或全分輪空；請改為不計分輪空",
        "每位参赛者只可申请一次半分或全分轮空；请改为不计分轮空",
    ),
    (
        "round {} is already paired: unpair it before cancelling its byes",
        "第 {} 輪已編排：須先撤銷編排才能取消該輪的輪空申請",
        "第 {} 轮已编排：须先撤销编排才能取消该轮的轮空申请",
    ),
    (
        "cannot change once round 1 is paired",
        "第一輪編排後不能更改",
        "第一轮编排后不能更改",
    ),
    (
        "cannot change once entrants exist",
        "已有參賽者後不能更改",
        "已有参赛者后不能更改",
    ),
    (
        "{} rounds are already paired",
        "已編排 {} 輪",
        "已编排 {} 轮",
    ),
    (
        "is not a section of this tournament",
        "不是本賽事的組別",
        "不是本赛事的组别",
    ),
    (
        "name each section once",
        "每個組別只可列出一次",
        "每个组别只可列出一次",
    ),
    // Human text (arbiter_core::text) and dates.
    (
        "is out of range: must be between 1900-01-01 and {}",
        "超出範圍：須介於 1900-01-01 與 {} 之間",
        "超出范围：须介于 1900-01-01 与 {} 之间",
    ),
    (
        "must not contain control characters (found {})",
        "不可含控制字元（發現 {}）",
        "不可含控制字符（发现 {}）",
    ),
    ("must be a single line", "只能有一行", "只能有一行"),
    (
        "must not contain text-direction control characters (found {})",
        "不可含文字方向控制字元（發現 {}）",
        "不可含文字方向控制字符（发现 {}）",
    ),
    (
        "contains a garbled character ({}); type the text again",
        "含有亂碼字元（{}）；請重新輸入",
        "含有乱码字符（{}）；请重新输入",
    ),
    // Compare-and-set.
    (
        "the settings were changed meanwhile (version {}, you sent {}); reload and try again",
        "設定已被他人更改（版本 {}，你送出的是 {}）；請重新載入再試",
        "设置已被他人更改（版本 {}，你提交的是 {}）；请重新加载再试",
    ),
    (
        "the match was changed meanwhile (version {}, you sent {}); reload and try again",
        "此對賽已被他人更改（版本 {}，你送出的是 {}）；請重新載入再試",
        "此对赛已被他人更改（版本 {}，你提交的是 {}）；请重新加载再试",
    ),
    (
        "the registration was changed meanwhile (version {}, you sent {}); reload and try again",
        "此報名已被他人更改（版本 {}，你送出的是 {}）；請重新載入再試",
        "此报名已被他人更改（版本 {}，你提交的是 {}）；请重新加载再试",
    ),
    (
        "the round was changed meanwhile (version {}, you sent {}); reload and try again",
        "此輪已被他人更改（版本 {}，你送出的是 {}）；請重新載入再試",
        "此轮已被他人更改（版本 {}，你提交的是 {}）；请重新加载再试",
    ),
    // Ties the chain leaves.
    (
        "{} falls inside a tie that the tiebreak chain does not break ({}); draw lots or set their order first",
        "{} 落在破同分規則無法分開的並列之中（{}）；請先抽籤或排定其順序",
        "{} 落在破同分规则无法分开的并列之中（{}）；请先抽签或排定其顺序",
    ),
    ("name at least two tied entrants", "請列出至少兩名並列者", "请列出至少两名并列者"),
    (
        "must be exactly one group the tiebreak chain leaves tied (at rank {}: {})",
        "須剛好是一組破同分後仍並列的選手（第 {} 名：{}）",
        "须刚好是一组破同分后仍并列的选手（第 {} 名：{}）",
    ),
    ("is not an entrant of this section", "不是本組別的參賽者", "不是本组别的参赛者"),
    // CSV import structure.
    ("contains a NUL character", "含有 NUL 字元", "含有 NUL 字符"),
    (
        "text after a closing quote: quote the whole field and double any quote inside it (\"\")",
        "結束引號後仍有文字：請將整個欄位加上引號，欄位內的引號須寫兩次（\"\"）",
        "结束引号后仍有文字：请将整个字段加上引号，字段内的引号须写两次（\"\"）",
    ),
    (
        "a quote inside an unquoted field: quote the whole field and double the quote (\"\")",
        "未加引號的欄位內有引號：請將整個欄位加上引號，並將引號寫兩次（\"\"）",
        "未加引号的字段内有引号：请将整个字段加上引号，并将引号写两次（\"\"）",
    ),
    ("a quote opened here is never closed", "此處開始的引號沒有結束", "此处开始的引号没有结束"),
    ("line 1 (header row): {}", "第 1 行（標題列）：{}", "第 1 行（标题行）：{}"),
    // Constraints the database refused (the fallback in service::Error).
    ("this value is already taken", "此值已被使用", "此值已被使用"),
    ("the value breaks the rule {}", "此值違反規則 {}", "此值违反规则 {}"),
    (
        "this is still referred to by other records; remove those first",
        "仍有其他紀錄引用此項；請先移除它們",
        "仍有其他记录引用此项；请先移除它们",
    ),
    (
        "refers to something that does not exist",
        "所指的項目不存在",
        "所指的项目不存在",
    ),
    ("this overlaps an existing record", "與現有紀錄重疊", "与现有记录重叠"),
    // Accounts and staff (issue #13).
    (
        "must be at least 8 characters",
        "至少須有 8 個字元",
        "至少须有 8 个字符",
    ),
    (
        "must be 1 to 64 characters",
        "須為 1 至 64 個字元",
        "须为 1 至 64 个字符",
    ),
    (
        "must not contain control characters",
        "不可包含控制字元",
        "不可包含控制字符",
    ),
    (
        "must be admin or user",
        "須為 admin 或 user",
        "须为 admin 或 user",
    ),
    (
        "a user named {} already exists",
        "已有名為 {} 的帳號",
        "已有名为 {} 的用户",
    ),
    ("is not your password", "不是您的密碼", "不是您的密码"),
    (
        "only admins manage users",
        "只有管理員可管理帳號",
        "只有管理员可管理用户",
    ),
    (
        "the last admin cannot be disabled or made a user",
        "不可停用或降級最後一位管理員",
        "不可停用或降级最后一位管理员",
    ),
    (
        "the last admin cannot be deleted",
        "不可刪除最後一位管理員",
        "不可删除最后一位管理员",
    ),
    (
        "this user has staffed tournaments or made changes; disable the account instead",
        "此帳號曾任賽事職務或有操作紀錄，請改為停用",
        "此用户曾任赛事职务或有操作记录，请改为停用",
    ),
    (
        "only the chief arbiter of this tournament may do this",
        "只有本賽事的裁判長可執行此操作",
        "只有本赛事的裁判长可执行此操作",
    ),
    (
        "scorers of this tournament may only enter results",
        "本賽事的記分員只可登錄成績",
        "本赛事的记分员只可登录成绩",
    ),
    (
        "you are not an arbiter of this tournament",
        "您不是本賽事的裁判",
        "您不是本赛事的裁判",
    ),
    (
        "only an admin names the chief arbiter",
        "只有管理員可指定裁判長",
        "只有管理员可指定裁判长",
    ),
    ("no such active user", "沒有此有效帳號", "没有此有效用户"),
    (
        "the chief arbiter keeps the role until an admin names another",
        "裁判長須待管理員指定新人選後方可卸任",
        "裁判长须待管理员指定新人选后方可卸任",
    ),
    (
        "too many attempts; wait a few minutes and try again",
        "嘗試次數過多，請稍候幾分鐘再試",
        "尝试次数过多，请稍候几分钟再试",
    ),
    // Game records (service::records).
    (
        "a record may have at most 16384 bytes",
        "棋譜最多 16384 位元組",
        "棋谱最多 16384 字节",
    ),
    (
        "a record may have at most 600 half-moves",
        "棋譜最多 600 步（半回合）",
        "棋谱最多 600 步（半回合）",
    ),
    (
        "the record was changed meanwhile (version {}, you sent {}); reload and try again",
        "棋譜已被他人修改（版本 {}，您送出的是 {}）；請重新載入後再試",
        "棋谱已被他人修改（版本 {}，您提交的是 {}）；请重新加载后再试",
    ),
    (
        "ply {}: cannot read \"{}\" as a move in this notation",
        "第 {} 步：「{}」不是此記譜法的著法",
        "第 {} 步：“{}”不是此记谱法的着法",
    ),
    (
        "ply {}: \"{}\" is not a legal move here",
        "第 {} 步：「{}」在此局面不合規則",
        "第 {} 步：“{}”在此局面不合规则",
    ),
    (
        "ply {}: \"{}\" fits more than one move ({}); say which piece",
        "第 {} 步：「{}」可指多步（{}）；請註明是哪一子（前、後等）",
        "第 {} 步：“{}”可指多步（{}）；请注明是哪一子（前、后等）",
    ),
    (
        "ply {}: \"{}\" moves the face-down piece on {}; add the piece it turned out to be",
        "第 {} 步：「{}」走動 {} 的暗子；請在末尾加上翻出的棋子",
        "第 {} 步：“{}”走动 {} 的暗子；请在末尾加上翻出的棋子",
    ),
    (
        "ply {}: \"{}\" reveals {} on {}, but the set-up put {} there",
        "第 {} 步：「{}」翻出 {}（{}），但布局在該處是 {}",
        "第 {} 步：“{}”翻出 {}（{}），但布局在该处是 {}",
    ),
    (
        "ply {}: \"{}\" cannot reveal that on {}: {}",
        "第 {} 步：「{}」在 {} 翻出的棋子不符：{}",
        "第 {} 步：“{}”在 {} 翻出的棋子不符：{}",
    ),
    (
        "ply {}: \"{}\" cannot reveal {} on {}: {}",
        "第 {} 步：「{}」不能翻出 {}（{}）：{}",
        "第 {} 步：“{}”不能翻出 {}（{}）：{}",
    ),
    // The event file (service::event_file): what is wrong with an imported file.
    (
        "refers to {} {}, which is not in the file",
        "指向檔案中沒有的 {} {}",
        "指向文件中没有的 {} {}",
    ),
    (
        "refers to an entrant of another section than the round's",
        "指向的參賽者不屬於該輪的組別",
        "指向的参赛者不属于该轮的组别",
    ),
    ("{} is in the file twice", "{} 在檔案中出現兩次", "{} 在文件中出现两次"),
    (
        "is not a column of this table",
        "不是此資料表的欄位",
        "不是此数据表的字段",
    ),
    (
        "is not a table of an event file",
        "不是賽事檔案的資料表",
        "不是赛事文件的数据表",
    ),
    (
        "must hold exactly one tournament, not {}",
        "須剛好包含一個賽事，而非 {} 個",
        "须刚好包含一个赛事，而非 {} 个",
    ),
    (
        "must be \"arbiter-event\" (this is not an event file of arbiter)",
        "須為 \"arbiter-event\"（這不是 arbiter 的賽事檔案）",
        "须为 \"arbiter-event\"（这不是 arbiter 的赛事文件）",
    ),
    (
        "this server reads version {} of the event file, not {}",
        "本伺服器讀取第 {} 版的賽事檔案，而非第 {} 版",
        "本服务器读取第 {} 版的赛事文件，而非第 {} 版",
    ),
    (
        "the database refuses a row{}: {}",
        "資料庫拒絕一列資料{}：{}",
        "数据库拒绝一行数据{}：{}",
    ),
    ("\"{}\" is not an id", "「{}」不是編號", "“{}”不是编号"),
    (
        "must be an id (a UUID string)",
        "須為編號（UUID 字串）",
        "须为编号（UUID 字符串）",
    ),
    // Money at the desk and entrants' corrections (issue #15).
    (
        "this section has no fee tiers",
        "此組別沒有收費級別",
        "此组别没有收费级别",
    ),
    (
        "is more than is held ({})",
        "超過已收金額（{}）",
        "超过已收金额（{}）",
    ),
    (
        "nothing was paid: there is nothing to refund",
        "尚未收款，無可退費",
        "尚未收款，无可退费",
    ),
    (
        "this entry of the ledger is already voided",
        "此收支紀錄已作廢",
        "此收支记录已作废",
    ),
    (
        "a doubles team's players are corrected under members",
        "雙人隊的棋手資料請在隊員欄位更正",
        "双人队的棋手资料请在队员栏位更正",
    ),
    (
        "a doubles team has {} players: send both",
        "雙人隊有 {} 名棋手：請兩人都送出",
        "双人队有 {} 名棋手：请两人都提交",
    ),
    (
        "only doubles teams have members",
        "只有雙人隊才有隊員",
        "只有双人队才有队员",
    ),
    (
        "the entrant was changed meanwhile (version {}, you sent {}); reload and try again",
        "參賽者資料已被他人更改（版本 {}，你送出 {}）；請重新載入再試",
        "参赛者资料已被他人更改（版本 {}，你提交 {}）；请重新加载再试",
    ),
];

/// `message` in `lang`: its template's translation with the message's own values, or the
/// message unchanged when it is English or has no template.
pub fn localise(lang: Lang, message: &str) -> Cow<'_, str> {
    if lang == Lang::En {
        return Cow::Borrowed(message);
    }
    // "field: message", as the dashboard shows errors that belong to no input of the form.
    if let Some((field, rest)) = message.split_once(": ") {
        let is_field = !field.is_empty()
            && field
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_.[]".contains(c));
        if is_field && lookup(lang, message).is_none() {
            return Cow::Owned(format!("{field}: {}", localise(lang, rest)));
        }
    }
    // Several messages joined by "; " (one field's list) are translated one by one.
    if message.contains("; ") && lookup(lang, message).is_none() {
        let parts: Vec<String> = message
            .split("; ")
            .map(|part| localise(lang, part).into_owned())
            .collect();
        return Cow::Owned(parts.join("；"));
    }
    match lookup(lang, message) {
        Some(text) => Cow::Owned(text),
        None => Cow::Borrowed(message),
    }
}

fn lookup(lang: Lang, message: &str) -> Option<String> {
    MESSAGES.iter().find_map(|&(en, hant, hans)| {
        let values = capture(en, message)?;
        let target = if lang == Lang::ZhHant { hant } else { hans };
        let mut out = String::new();
        let mut values = values.into_iter();
        let mut pieces = target.split("{}").peekable();
        while let Some(piece) = pieces.next() {
            out.push_str(piece);
            if pieces.peek().is_some() {
                out.push_str(values.next().unwrap_or_default());
            }
        }
        Some(out)
    })
}

/// The values standing for `{}` when `message` fits `template`, else `None`.
fn capture<'m>(template: &str, message: &'m str) -> Option<Vec<&'m str>> {
    let pieces: Vec<&str> = template.split("{}").collect();
    let (first, rest) = pieces.split_first()?;
    let mut remaining = message.strip_prefix(first)?;
    let mut values = Vec::new();
    for (i, piece) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        let at = if last {
            // The last literal must end the message.
            if piece.is_empty() {
                remaining.len()
            } else {
                remaining
                    .rfind(piece)
                    .filter(|&at| at + piece.len() == remaining.len())?
            }
        } else if piece.is_empty() {
            // Two values side by side cannot be told apart; the templates avoid it.
            return None;
        } else {
            remaining.find(piece)?
        };
        values.push(&remaining[..at]);
        remaining = &remaining[at + piece.len()..];
    }
    (remaining.is_empty()).then_some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_with_values_is_translated_with_the_values_kept() {
        assert_eq!(
            localise(Lang::ZhHant, "must be between 1 and 20"),
            "須介於 1 與 20 之間"
        );
        assert_eq!(
            localise(
                Lang::ZhHans,
                "round 3 still has 2 board(s) without a result; enter them before pairing the next round"
            ),
            "第 3 轮仍有 2 台未有成绩；请先输入再编排下一轮"
        );
    }

    #[test]
    fn english_and_unknown_messages_pass_through() {
        assert_eq!(localise(Lang::En, "is required"), "is required");
        assert_eq!(localise(Lang::ZhHant, "something new"), "something new");
        assert_eq!(localise(Lang::ZhHant, "is required!"), "is required!");
    }

    #[test]
    fn a_message_about_a_named_field_keeps_the_name() {
        assert_eq!(
            localise(Lang::ZhHans, "boards[0].black: is required"),
            "boards[0].black: 必填"
        );
    }

    #[test]
    fn a_field_list_joined_by_semicolons_is_translated_part_by_part() {
        assert_eq!(
            localise(Lang::ZhHant, "is required; something new"),
            "必填；something new"
        );
    }

    #[test]
    fn every_template_has_the_same_number_of_values_in_each_language() {
        for (en, hant, hans) in MESSAGES {
            let n = en.matches("{}").count();
            assert_eq!(hant.matches("{}").count(), n, "{en}");
            assert_eq!(hans.matches("{}").count(), n, "{en}");
            assert!(!en.contains("{}{}"), "{en}: adjacent values");
        }
    }

    /// The literal messages the services give a person: the message of each
    /// `check.error(field, "…")` and `Error::Conflict("…")`, with `{…}` made `{}`.
    fn service_messages() -> Vec<(String, String)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/service");
        let mut found = Vec::new();
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("src/service")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("source");
            for (marker, skip_first_argument) in
                [("check.error(", true), ("Error::Conflict(", false)]
            {
                for (at, _) in text.match_indices(marker) {
                    let mut rest = &text[at + marker.len()..];
                    if skip_first_argument {
                        // The field: up to the first comma outside parentheses.
                        let mut depth = 0;
                        let Some(end) = rest.char_indices().find_map(|(i, c)| {
                            match c {
                                '(' => depth += 1,
                                ')' => depth -= 1,
                                ',' if depth == 0 => return Some(i),
                                _ => {}
                            }
                            None
                        }) else {
                            continue;
                        };
                        rest = rest[end + 1..].trim_start();
                    }
                    let rest = rest.strip_prefix("format!(").unwrap_or(rest).trim_start();
                    // Only a literal message; a computed one (`e.to_string()`) is not ours.
                    let Some(literal) = rest.strip_prefix('"') else {
                        continue;
                    };
                    let Some(end) = literal.find('"') else {
                        continue;
                    };
                    let mut message = String::new();
                    let mut in_value = false;
                    for c in literal[..end].chars() {
                        match c {
                            '{' => {
                                in_value = true;
                                message.push_str("{}");
                            }
                            '}' => in_value = false,
                            c if !in_value => message.push(c),
                            _ => {}
                        }
                    }
                    let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
                    found.push((file.unwrap_or_default(), message));
                }
            }
        }
        found
    }

    #[test]
    fn every_literal_service_message_has_a_translation() {
        let messages = service_messages();
        assert!(
            messages.len() > 40,
            "the scan finds the messages: {messages:?}"
        );
        let missing: Vec<_> = messages
            .iter()
            .filter(|(_, m)| {
                // A fixed message may be covered by a general template ("must be between {}…").
                !m.contains('\\')
                    && !MESSAGES.iter().any(|(en, _, _)| {
                        en == m || (!m.contains("{}") && capture(en, m).is_some())
                    })
            })
            .collect();
        assert!(missing.is_empty(), "add templates for: {missing:#?}");
    }

    #[test]
    fn each_template_is_the_first_to_fit_its_own_messages() {
        for (a, _, _) in MESSAGES {
            let sample = a.replace("{}", "7");
            let fits: Vec<&str> = MESSAGES
                .iter()
                .filter(|(b, _, _)| capture(b, &sample).is_some())
                .map(|(b, _, _)| *b)
                .collect();
            // A literal template may sit before the general one it refines.
            assert_eq!(fits.first(), Some(a), "{sample}: {fits:?}");
        }
    }
}
