"""Month spellings models write that tsolve's calendar tables do not list.

Claims accept every spelling :mod:`tsolve.calendars.names` accepts, and these
as well: the usual transliterations of each calendar's months, from the
sources in :data:`SOURCES` (docs/claims.md, "Month spellings"). They live
here, not in the calendars' table, because that table also drives the SPAN
grader and the CLI, whose accepted answers are a scoring decision; a claim
checker only has to *read* what a model wrote.

Keys are written as :func:`tsolve.calendars.names.normalise` folds them
(lower case, letters and digits only: "Rabi' al-Thani" is ``rabialthani``),
and each maps to the month number (Hebrew 12/13 = Adar I/II). A spelling that
is also an English word a sentence might hold next to a number ("safer",
Turkish Safar; "day", Persian Dey) is left out on purpose: a misread month
would be a false claim on a sound sentence.
"""

from __future__ import annotations

#: Where each group of spellings comes from (cited in docs/claims.md).
SOURCES: dict[str, str] = {
    "hebrew": (
        "Ashkenazi and Sephardi/Israeli forms: Wikipedia, 'Hebrew calendar', section "
        "'Months' (with the Ashkenazi pronunciations Nissan, Teves, Cheshvan, Shvat); "
        "Chabad.org Jewish calendar (Adar Beis, Mar-Cheshvan, Teves); Encyclopaedia Judaica, "
        "'Calendar' (Tebeth, Shebat, Marheshvan)"
    ),
    "islamic": (
        "Wikipedia, 'Islamic calendar', section 'Months' (Rabi' ath-Thani, Jumada al-Ula, "
        "Jumada ath-Thaniyah, Dhu al-Qi'dah); South Asian (Urdu) forms as on Pakistani and "
        "Indian calendars (Rabi-ul-Sani, Jamadi-ul-Awwal, Jamadi-us-Sani, Ramzan, "
        "Zil Qaada, Zil Hijjah); Turkish forms of the Diyanet calendar (Muharrem, "
        "Rebiulevvel, Rebiulahir, Cemaziyelevvel, Cemaziyelahir, Recep, Saban, Ramazan, "
        "Sevval, Zilkade, Zilhicce); Malay/Indonesian forms (Jumadil Awal, Jumadil Akhir, "
        "Syaban, Syawal, Zulkaedah, Zulhijah)"
    ),
    "persian": (
        "Wikipedia, 'Solar Hijri calendar', section 'Months'; Encyclopaedia Iranica, "
        "'Calendars' (Ordibehesht/Urdibihisht, Khordad/Khurdad, Mordad/Amurdad, "
        "Shahrivar/Shahrewar, Mehr/Mihr, Azar/Adhar, Esfand/Espand/Isfand)"
    ),
    "shaka": (
        "Wikipedia, 'Indian national calendar', section 'Months' (Chaitra, Vaishakha, "
        "Jyaishtha, Ashadha, Shravana, Bhadra, Ashvin, Kartika, Agrahayana, Pausha, Magha, "
        "Phalguna, with their IAST forms); the vernacular North Indian and Bengali names of "
        "the same months in Wikipedia, 'Hindu calendar' (Baisakh, Jeth, Asarh, Sawan, "
        "Bhadon, Kuar, Kartik, Aghan, Poush, Phagun/Falgun)"
    ),
}

#: Calendar -> normalised spelling -> month number.
EXTRA_SPELLINGS: dict[str, dict[str, int]] = {
    "hebrew": {
        "nissan": 1, "nisson": 1,
        "iyyar": 2, "iyar": 2, "iyer": 2, "iar": 2,
        "siwan": 3, "sivon": 3,
        "tamus": 4, "tammus": 4,
        "menachemav": 5, "menahemav": 5,
        "ellul": 6,
        "tishrey": 7, "tisri": 7,
        "marchesvan": 8, "cheshvon": 8, "heshwan": 8,
        "kislef": 9, "kislaiv": 9, "kisleiv": 9,
        "teves": 10, "teiveis": 10, "tebet": 10, "teweth": 10,
        "shvot": 11, "shevet": 11, "shebet": 11,
        "adarrishon": 12, "adaralef": 12,
        "adarbeis": 13, "adarbais": 13, "adarsheini": 13, "adarsheyni": 13, "veadarbet": 13,
    },
    "islamic": {
        "moharram": 1, "muharrem": 1, "muharam": 1,
        "saphar": 2, "safr": 2,
        "rabiulawwal": 3, "rabiulawaal": 3, "rabialavval": 3, "rebiulevvel": 3,
        "rabeeulawwal": 3, "rabiulaval": 3, "rabiulavval": 3,
        "rabiulsani": 4, "rabiussaani": 4, "rabiathani": 4, "rebiulahir": 4,
        "rabiulakhar": 4, "rabialakhar": 4, "rabeeulaakhir": 4, "rabiulaakhir": 4,
        "rabiaththaani": 4, "rabiulsaani": 4,
        "jumadilawal": 5, "jumadilawwal": 5, "jamadiulawal": 5, "jamadiulawwal": 5,
        "jimadiulawwal": 5, "jumadaulula": 5, "cemaziyelevvel": 5, "jumadalawal": 5,
        "jumadilakhir": 6, "jumadilakhirah": 6, "jamadiussani": 6, "jamadiulakhir": 6,
        "jimaadiulsaani": 6, "jumadaththaniyah": 6, "jumadaaththaniya": 6,
        "cemaziyelahir": 6, "jumadiulakhir": 6, "jumadaalthania": 6,
        "rajjab": 7, "recep": 7, "rejeb": 7,
        "shaaban": 8, "shabaan": 8, "shaabaan": 8, "syaban": 8, "saban": 8,
        "ramadaan": 9, "ramzan": 9, "ramzaan": 9, "ramadhaan": 9,
        "shawaal": 10, "syawal": 10, "sevval": 10, "shawwaal": 10,
        "dhulqadah": 11, "dhulqaadah": 11, "dhulqaada": 11, "dhualqidah": 11,
        "dhulqida": 11, "zulqada": 11, "zulqaada": 11, "zulqaadah": 11, "zilqaada": 11,
        "zilqad": 11, "zilkade": 11, "zulkaedah": 11, "zulqaidah": 11, "zulqaida": 11,
        "dhulkadah": 11, "dhulkada": 11,
        "dhulhijah": 12, "zulhijja": 12, "zulhijah": 12, "zilhijjah": 12, "zilhijja": 12,
        "zilhicce": 12, "dhualhijjah": 12, "dhulhijjah": 12, "zilhaj": 12, "zulhaj": 12,
    },
    "persian": {
        "farwardin": 1, "farvardeen": 1,
        "ordibehest": 2, "ardibehesht": 2, "ordibehesht": 2,
        "khordaad": 3, "xordad": 3,
        "teer": 4,
        "mordaad": 5, "amurdad": 5, "amordaad": 5,
        "shahrewar": 6, "shahrivaar": 6,
        "mihr": 7,
        "abaan": 8, "aaban": 8,
        "aazar": 9, "azer": 9,
        "bahaman": 11,
        "espand": 12, "esfandarmaz": 12, "sepandarmad": 12,
    },
    "shaka": {
        "chaitr": 1, "chait": 1, "chaitro": 1,
        "vaishakh": 2, "vaisakh": 2, "baishakh": 2, "boishakh": 2, "vaishaka": 2,
        "jyaishtha": 3, "jyeshth": 3, "jeth": 3, "jaishtha": 3, "jyestha": 3, "jaistha": 3,
        "ashadh": 4, "asharh": 4, "asarh": 4, "aashaadha": 4, "asadh": 4, "asharha": 4,
        "shraavana": 5, "sawan": 5, "saawan": 5, "shrabon": 5, "sravan": 5, "shraban": 5,
        "bhadon": 6, "bhado": 6, "bhadrapad": 6, "bhadro": 6, "bhaadrapada": 6,
        "ashvina": 7, "aswin": 7, "ashwina": 7, "kuar": 7, "ashshin": 7, "asvayuja": 7,
        "karthik": 8, "kartick": 8, "kaartika": 8, "karttika": 8,
        "agrahayan": 9, "margasirsa": 9, "margashira": 9, "agahan": 9, "ogrohayon": 9,
        "margashirsh": 9,
        "poush": 10, "pausa": 10, "pousha": 10,
        "maagh": 11, "maagha": 11,
        "phagun": 12, "falgun": 12, "phalgun": 12, "phaalguna": 12, "falgoon": 12,
    },
}  # fmt: skip
