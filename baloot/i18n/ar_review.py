"""النصوص العربية لمراجعة اللعب: الأمر والأزرار وسطر التقدّم والنتيجة وأسباب الرفض."""

from __future__ import annotations

from typing import Final

AR_REVIEW: Final = {
    "cmd.review.name": "مراجعة",
    "cmd.review.desc": "راجع يدًا انتهت: كل قرار يُحكم عليه بما كان يراه صاحبه",
    "opt.match.name": "الصكة",
    "opt.match.desc": "الصكة (رقم الطاولة) في هذا السيرفر؛ بدونها: طاولة هذه القناة",
    "opt.review_hand.name": "رقم_اليد",
    "opt.review_hand.desc": "رقم اليد في الصكة (1 أولها)؛ بدونه: آخر يد انتهت",
    "button.review": "مراجعة",
    "button.review_prev": "◀",
    "button.review_next": "▶",
    "button.review_everyone": "الجميع",
    "review.progress_bidding": "جارٍ مراجعة الشراء…",
    "review.progress_trick": "جارٍ مراجعة الأكلة {trick} من {tricks}…",
    "review.title": "مراجعة · اليد {hand}",
    "review.step_bidding": "مراجعة · اليد {hand} · الشراء",
    "review.step_trick": "مراجعة · اليد {hand} · الأكلة {trick}",
    "review.accuracy_head": "الدقة",
    "review.accuracy_line": "{name}: {accuracy}",
    "review.costliest_head": "أغلى القرارات",
    "review.costly_line": "{name}: {played} بدل {best}: خسارة {loss} نقطة، {label}. {luck}",
    "review.none_costly": "لم يخسر أي قرار في هذه اليد نقطة واحدة.",
    "review.label.inaccuracy": "عدم دقة",
    "review.label.mistake": "خطأ",
    "review.label.blunder": "خطأ فادح",
    "review.label.none": "خسارة صغيرة",
    "review.luck.unlucky": "قرار صحيح بما كان يراه؛ لكن الورق كان ضده.",
    "review.luck.lucky": "خطأ نفع بالصدفة.",
    "review.luck.error": "خطأ حتى لو كان الورق كله مكشوفًا.",
    "review.legend": ("الخط: النقاط المتوقعة من هذه اليد بعد كل قرار، الفريق 1 فوق والفريق 2 تحت. "
                      "النقاط الملوّنة: الأخطاء (مع رقم المقعد)؛ النرد: حظ لا خطأ."),
    "review.played": "▸ **{option}**",
    "review.forced": "{name}: {action} (الخيار الوحيد الممكن)",
    "review.decision": "{name}: {action}",
    "review.option": "{option} {value}",
    "review.step_none": "لا شيء لهذا اللاعب هنا.",
    "review.unit": "القيم: النقاط التي تضيفها اليد لفريق اللاعب ناقص نقاط الفريق الآخر (متوقعة).",
    "review.match_accuracy": "الدقة في هذه الصكة: {line}",
    "stats.accuracy": "متوسط الدقة: **{accuracy}** — الصكات المراجَعة الأخيرة: {matches}",
    "error.review_in_progress": "هذه اليد لم تنتهِ بعد: لا يُعرض شيء من يد جارية. حاول بعد انتهائها.",
    "error.review_not_at_table": "لا يراجع أيدي هذه الطاولة أثناء الصكة إلا لاعبوها.",
    "error.review_no_hand": "لا توجد هذه اليد في صكة من صكات هذا السيرفر.",
    "error.review_nothing": "هذه اليد رُميت أو أُلغيت: لا قرار فيها للمراجعة.",
}
