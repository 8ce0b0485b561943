-- Names in the visitor's order (issue #16): ICU collations, chosen by the page language.
-- zh-Hant by stroke count, zh-Hans by pinyin, English alphabetically (case-insensitive at
-- the first level). The server must be built with ICU.
CREATE COLLATION IF NOT EXISTS zh_hant_stroke (provider = icu, locale = 'zh-Hant-u-co-stroke');
CREATE COLLATION IF NOT EXISTS zh_pinyin (provider = icu, locale = 'zh-u-co-pinyin');
CREATE COLLATION IF NOT EXISTS en_icu (provider = icu, locale = 'en');
