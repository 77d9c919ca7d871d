"""النصوص العربية للبطولات: رسالة البطولة، الرفض، صورة الترتيب."""

from __future__ import annotations

from typing import Final

AR_TOURNAMENTS: Final[dict[str, str]] = {
    "tournament.unknown": "لا توجد بطولة بهذا الرقم في هذا السيرفر.",
    "tournament.closed": "التسجيل في هذه البطولة مغلق.",
    "tournament.bad_format": "البطولة إما نظام سويسري أو خروج المغلوب.",
    "tournament.bad_rounds": "للبطولة السويسرية من ١ إلى ٢٠ جولة.",
    "tournament.bad_name": "اختر اسمًا للبطولة.",
    "tournament.already_registered": "أنت مسجّل في هذه البطولة من قبل.",
    "tournament.partner_registered": "{partner} مسجّل في هذه البطولة من قبل.",
    "tournament.partner_bot": "يجب أن يكون خويك شخصًا، لا بوتًا.",
    "tournament.partner_gone": "خويك لم يعد في هذا السيرفر.",
    "tournament.partner_self": "اختر شخصًا آخر ليكون خويك.",
    "tournament.not_registered": "لست مسجّلًا في هذه البطولة.",
    "tournament.nothing_to_confirm": "لا يوجد فريق ينتظر تأكيدك.",
    "tournament.organiser_only": "هذا للمنظّم أو لمشرف السيرفر فقط.",
    "tournament.too_few": "البدء يحتاج {needed} فرق على الأقل؛ المسجّل {teams}.",
    "tournament.not_running": "البطولة ليست جارية.",
    "tournament.not_paused": "البطولة ليست متوقفة.",
    "tournament.no_such_team": "هذا الفريق لا يلعب في هذه البطولة.",
    "tournament.over": "انتهت البطولة.",
    "tournament.standings.title": "{name} — الترتيب بعد الجولة {round}",
    "tournament.standings.final": "{name} — الترتيب النهائي",
    "tournament.standings.place": "#",
    "tournament.standings.team": "الفريق",
    "tournament.standings.points": "النقاط",
    "tournament.standings.matchpoints": "المقارنة",
    "tournament.standings.buchholz": "بوخهولز",
    "tournament.standings.next": "الجولة {round}",
    "tournament.standings.bye": "استراحة",
    "tournament.standings.bots": "بوتات",
}
