"""Arabic slash-command texts and the rules summary (same keys as ``en_help``).

Arabic command names use letters, digits and ``_`` only (no diacritics), as
Discord requires; a test checks them.
"""

from __future__ import annotations

from typing import Final

_COMMANDS: Final = {
    "cmd.baloot.name": "بلوت",
    "cmd.baloot.desc": "العب البلوت على طاولة في هذه القناة",
    "cmd.create.name": "طاولة_جديدة",
    "cmd.create.desc": "افتح طاولة بلوت في هذه القناة",
    "cmd.join.name": "انضمام",
    "cmd.join.desc": "اجلس على طاولة هذه القناة (مقعد أو فريق تختاره، أو أول مقعد فارغ)",
    "cmd.leave.name": "مغادرة",
    "cmd.leave.desc": "غادر طاولة هذه القناة",
    "cmd.start.name": "ابدأ",
    "cmd.start.desc": "ابدأ الصكة عندما يجلس أربعة لاعبين",
    "cmd.hand.name": "ورقي",
    "cmd.hand.desc": "اعرض أوراقك وحركاتك لك وحدك",
    "cmd.play.name": "طاولة",  # the Activity
    "cmd.play.desc": "افتح الطاولة صفحةً حيّة داخل ديسكورد (نشاط)",
    "cmd.score.name": "النتيجة",
    "cmd.score.desc": "اعرض ورقة نتائج الصكة",
    "cmd.rules.name": "القوانين",
    "cmd.rules.desc": "ملخص القوانين: أنواع اللعب وقيم الأوراق والمشاريع",
    "cmd.end.name": "إنهاء",
    "cmd.end.desc": "أنهِ هذه الطاولة (صاحبها أو مشرف أو بتصويت اللاعبين)",
    "cmd.language.name": "اللغة",
    "cmd.language.desc": "اختر لغة هذه الطاولة أو الخادم أو لغتك أنت",
    "cmd.fill.name": "بوتات",
    "cmd.fill.desc": "املأ المقاعد الفارغة بلاعبين آليين",
    "opt.seat.name": "المقعد",
    "opt.seat.desc": "المقعد الذي تجلس فيه (1–4)",
    "opt.team.name": "الفريق",
    "opt.team.desc": "الفريق الذي تنضم إليه",
    "opt.target.name": "الهدف",
    "opt.target.desc": "نقاط الفوز بالصكة (الافتراضي 152)",
    "opt.turn_time.name": "وقت_الدور",
    "opt.turn_time.desc": "ثواني كل دور (الافتراضي 60)",
    "opt.language.name": "اللغة",
    "opt.language.desc": "اللغة المستخدمة",
    "cmd.quick.name": "سريعة",
    "cmd.quick.desc": "العب مباراة سريعة مع لاعبين من كل الخوادم في الرسائل الخاصة",
    "cmd.report.name": "إبلاغ",
    "cmd.report.desc": "أبلغ عن لاعب على طاولة مباراتك السريعة",
    "opt.partner.name": "الشريك",
    "opt.partner.desc": "صديق تنضم معه إلى الطابور شريكًا لك",
    "opt.reported.name": "المبلغ_عنه",
    "opt.reported.desc": "مقعد اللاعب المبلَّغ عنه (من 1 إلى 4)",
    "opt.scope.name": "النطاق",
    "opt.scope.desc": "هذه الطاولة أو الخادم كله (للمشرفين) أو أنا فقط",
    "opt.level.name": "المستوى",
    "opt.level.desc": "مستوى لعب البوتات",
    "opt.ashkal_on_ace.name": "أشكل_على_الإكة",
    "opt.ashkal_on_ace.desc": "اسمح بالأشكل إذا كانت الورقة المكشوفة إكة",
    "opt.ashkal_round_two.name": "أشكل_الدور_الثاني",
    "opt.ashkal_round_two.desc": "اسمح بالأشكل في الدور الثاني (للاعب الثالث والرابع)",
    "opt.third_round_on_ace.name": "دور_ثالث_على_الإكة",
    "opt.third_round_on_ace.desc": "دور شراء ثالث للاعب الأول إذا كانت الورقة المكشوفة إكة",
    "opt.kawesh.name": "كوش",
    "opt.kawesh.desc": "اسمح بالكوش: إلغاء الجولة إذا كانت الأوراق الخمس الأولى كلها 7 أو 8 أو 9",
    "opt.declarer_leads.name": "المشتري_يبدأ",
    "opt.declarer_leads.desc": "المشتري يبدأ الأكلة الأولى",
    "opt.trump_sequence_priority.name": "أولوية_سرا_الحكم",
    "opt.trump_sequence_priority.desc": "في الحكم يغلب مشروع الحكم مشروعًا مساويًا من نوع آخر",
    "opt.projects_multiply_fully.name": "مضاعفة_المشاريع_كاملة",
    "opt.projects_multiply_fully.desc": "المشاريع ×3 و×4 في الثري والفور",
    "opt.baloot_stays_with_holder.name": "البلوت_لصاحبه",
    "opt.baloot_stays_with_holder.desc": "الفريق الخاسر يحتفظ ببلوته",
    "opt.sawa.name": "سوا",
    "opt.sawa.desc": "السوا: يحق لمن عليه اللعب أن يطلب بقية الأكلات (مفعّل ما لم يُطفأ)",
    "opt.thread.name": "موضوع",
    "opt.thread.desc": "العب في موضوع جديد من هذه القناة لتبقى القناة هادئة (غير مفعّل افتراضيًا)",
    "table.thread_name": "بلوت · {name}",
    "choice.team.1": "الفريق 1 (المقعدان 1 و3)",
    "choice.team.2": "الفريق 2 (المقعدان 2 و4)",
    "choice.language.en": "English (الإنجليزية)",
    "choice.language.ar": "العربية",
    "choice.scope.table": "هذه الطاولة",
    "choice.scope.me": "أنا فقط (أوراقي والردود والمساعدة)",
    "choice.scope.server": "الخادم كله",
    "choice.level.easy": "سهل",
    "choice.level.normal": "عادي",
    "choice.level.hard": "صعب",
}

def _table(rows: tuple[tuple[str, ...], ...], first: int, widths: tuple[int, ...]) -> str:
    """A right-to-left table for a code block: one row per line, the label first (rightmost).

    Each line is read right to left (the renderer wraps Arabic lines in RLI … PDI,
    :mod:`baloot.i18n.direction`): the label, then each column. Labels are padded
    after (to their left), values before, so each value sits under its column's
    heading; no line ends in spaces (UAX #9 L1 would move them).
    """
    lines = []
    for label, *values in rows:
        cells = [label.ljust(first) if values else label]
        cells += [v.rjust(w) for v, w in zip(values, widths, strict=False)]
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


# R1.1 card values, one row per card in trump order: the card, in Hokum's trump, otherwise (and Sun).
_VALUES: Final = (
    ("الورقة", "حكم", "غيره"),
    ("ولد", "20", "2"),
    ("9", "14", "0"),
    ("إكة", "11", "11"),
    ("10", "10", "10"),
    ("شايب", "4", "4"),
    ("بنت", "3", "3"),
    ("8", "0", "0"),
    ("7", "0", "0"),
)
# R6.1 project values in game points: Hokum, Sun.
_PROJECTS: Final = (
    ("المشروع", "حكم", "صن"),
    ("سرا: 3 متتالية", "2", "4"),
    ("خمسين: 4 متتالية", "5", "10"),
    ("مية: 5 متتالية أو", "10", "20"),
    ("  أربع 10/ولد/بنت/شايب",),
    ("أربعمية: أربع إكك", "-", "40"),
)

_RULES: Final = {
    "rules.title": "البلوت — القوانين باختصار",
    "rules.intro": (
        "أربعة لاعبين في فريقين، كل شريكين متقابلان؛ 32 ورقة (من 7 إلى الإكة)، ثماني أوراق لكل لاعب. "
        "اكسب الأكلات ذات النقاط. أول فريق يصل إلى {target} يفوز بالصكة."
    ),
    "rules.contracts.name": "أنواع اللعب",
    "rules.contracts.value": (
        "**حكم**: نوع حاكم؛ 162 نقطة أوراق في الجولة = 16 بنطًا.\n"
        "**صن**: بلا حكم ونقاطه مضاعفة؛ 130 نقطة = 26 بنطًا.\n"
        "**أشكل**: صن من اللاعب الثالث أو الرابع، ويأخذ شريكه الورقة المكشوفة.\n"
        "**بس**: لا شراء."
    ),
    "rules.bidding.name": "الشراء",
    "rules.bidding.value": (
        "خمس أوراق لكل لاعب وورقة مكشوفة. الدور الأول: الحكم يكون من نوع الورقة المكشوفة، "
        "والصن يغلب الحكم، وللاعب الأسبق أولوية الصن. الدور الثاني: حكم من نوع آخر أو صن. "
        "إذا قال الجميع بس مرتين تُلغى الجولة. المشتري يأخذ الورقة المكشوفة."
    ),
    "rules.doubling.name": "دبل، ثري، فور، قهوة",
    "rules.doubling.value": (
        "للخصم أن يقول دبل، ثم للمشتري ثري، ثم لصاحب الدبل فور، ثم للمشتري قهوة. "
        "الدبل والفور إما مقفول أو مفتوح: في المقفول لا يبدأ أحد بالحكم وعنده غيره. "
        "القهوة تحسم الصكة كلها. الصن لا يُدبل إلا إذا كان فريق فوق 100 والآخر تحتها."
    ),
    "rules.play.name": "اللعب",
    "rules.play.value": (
        "يبدأ اللاعب الذي بعد الموزّع. العب من النوع نفسه إن استطعت. في الحكم يجب أن تقطع "
        "بالحكم إذا لم يكن عندك النوع (إلا إذا كان شريكك رابحًا)، وأن تعلو على حكم الخصم إن "
        "استطعت. الأكلة الأخيرة تزيد 10 نقاط."
    ),
    "rules.values.name": "قيم الأوراق",
    "rules.values.value": (
        "```\n" + _table(_VALUES, 7, (4, 6)) + "\n```\n"
        "ترتيب الحكم: ولد، 9، إكة، 10، شايب، بنت، 8، 7. غيره وفي الصن: إكة، 10، شايب، بنت، ولد، 9، 8، 7."
    ),
    "rules.projects.name": "المشاريع (تُعلن في الأكلة الأولى)",
    "rules.projects.value": (
        "```\n" + _table(_PROJECTS, 22, (4, 5)) + "\n```\n"
        "التسلسل: إكة شايب بنت ولد 10 9 8 7. أربع إكك في الحكم مية. لا يسجّل المشاريع إلا الفريق "
        "صاحب المشروع الأقوى. **بلوت**: الشايب والبنت من الحكم في يد واحدة، 2 بنط ولا يُضاعف."
    ),
    "rules.scoring.name": "الحساب",
    "rules.scoring.value": (
        "نقاط الأوراق تصير أبناطًا (الحكم ÷10، الصن ÷5 مع التقريب). إذا لم يفز المشتري أخذ "
        "الخصم كل الأبناط. في الدبل يأخذ الفائز الكل × المضاعفة. **كبوت**: الأكلات الثماني كلها، "
        "25 في الحكم أو 44 في الصن."
    ),
}

AR_HELP: Final[dict[str, str]] = {**_COMMANDS, **_RULES}
