#!/usr/bin/env python3
# Writes the LimeSurvey fixtures of test/import/import-files*.test.ts (run it again after a change):
#   survey-6x.lss   a survey structure file in the 4.x-6.x layout (DBVersion 624: groups +
#                   group_l10ns, questions + subquestions + question_l10ns, answers + answer_l10ns)
#   survey-2x.lss   the same survey in the 2.x/3.x layout (DBVersion 355: texts in the rows, one
#                   row per language), in English and German
#   responses.lsr   its responses table export (the same sid/gid/qid fit both layouts)
#   survey-6x.lsa   a survey archive: the .lss, the .lsr and a participants table (.lst)
#   expected.json   the source's counts, per question code: {option text: n} ("other": the other
#                   answers), {row text: {option text: n}} for arrays (ranking: {option: {rank: n}},
#                   dual scale: {scale header: {option: n}}), {"answered": n} for texts and
#                   {cell text: {"answered": n}} for multiple texts and numbers
#   bad/…           inputs that must be refused: a truncated file, an entity bomb, a zip climbing
#                   out (../), a zip bomb, a zip lying about its sizes, a responses file as survey
# Layouts follow LimeSurvey's own exports in its repository: tests/data/surveys/
# limesurvey_survey_question_list.lss (DBVersion 477: group_l10ns, question_l10ns, the rows of
# 4.x+) and limesurvey_survey_OldCodes.lss (DBVersion 164: one row per language in groups and
# questions, additional_languages); the responses table export follows getXMLDataSingleTable /
# buildXMLFromQuery (application/helpers/export_helper.php): <responses><fields>…<rows><row>, a
# column named by SGQA (<sid>X<gid>X<qid><suffix>) prefixed with "_" as XML names cannot start
# with a digit. Every value here is made up.
import json, os, zipfile, zlib, struct, io

HERE = os.path.dirname(os.path.abspath(__file__))
SID = '123456'

def cdata(v):
    return '<![CDATA[' + str(v) + ']]>'

# qid, gid, type, code, text, options
G = [
    ('10', 'About you', 'Who you are.', ''),
    ('20', 'Arrays', '', ''),
    ('30', 'Last page', '', 'Q5 == "Y"'),
]
Q = []
def q(qid, gid, t, code, text, answers=(), subs=(), subs1=(), rel='1', other='N', mandatory='N', attrs=None, answers1=()):
    Q.append(dict(qid=qid, gid=gid, type=t, code=code, text=text, answers=list(answers), answers1=list(answers1),
                  subs=list(subs), subs1=list(subs1), rel=rel, other=other, mandatory=mandatory, attrs=attrs or {}))

q('101', '10', 'L', 'Q1', 'Favourite <b>colour</b>?', [('A1', 'Red'), ('A2', 'Green'), ('A3', 'Blue')], other='Y', mandatory='Y')
q('102', '10', '!', 'Q2', 'Country', [('UK', 'United Kingdom'), ('FR', 'France'), ('DE', 'Germany')])
q('103', '10', 'O', 'Q3', 'Preferred pet', [('CAT', 'Cat'), ('DOG', 'Dog')])
q('104', '10', 'G', 'Q4', 'Gender')
q('105', '10', 'Y', 'Q5', 'Do you drive?')
q('106', '10', '5', 'Q6', 'Rate us')
q('107', '10', 'I', 'Q7', 'Language')
q('108', '10', 'S', 'Q8', 'Your name')
q('109', '10', 'T', 'Q9', 'Tell us more')
q('110', '10', 'U', 'Q10', 'Your story')
q('111', '10', 'N', 'Q11', 'Your age')
q('112', '10', 'D', 'Q12', 'Birthday', attrs={'date_format': 'yyyy-mm-dd'})
q('113', '10', 'M', 'Q13', 'Hobbies', subs=[('SQ001', 'Reading'), ('SQ002', 'Sport'), ('SQ003', 'Music')], other='Y')
q('114', '10', 'P', 'Q14', 'Devices', subs=[('SQ001', 'Phone'), ('SQ002', 'Laptop')])
q('201', '20', 'A', 'Q15', 'Rate (5 points)', subs=[('SQ001', 'Service'), ('SQ002', 'Price')], rel='Q1.NAOK == "A1"')
q('202', '20', 'B', 'Q16', 'Rate (10 points)', subs=[('SQ001', 'Speed')], rel='((Q5 == "Y"))')
q('203', '20', 'C', 'Q17', 'Yes, no or uncertain', subs=[('SQ001', 'Would return')], rel='Q13_SQ001 == "Y"')
q('204', '20', 'E', 'Q18', 'Increase, same or decrease', subs=[('SQ001', 'Prices')], rel='!is_empty(Q8)')
q('205', '20', 'F', 'Q19', 'Array', [('AO1', 'Bad'), ('AO2', 'OK'), ('AO3', 'Good')], subs=[('SQ001', 'Staff'), ('SQ002', 'Food')], rel='Q11 > 30')
q('206', '20', 'H', 'Q20', 'Array by column', [('AO1', 'Tea'), ('AO2', 'Coffee')], subs=[('SQ001', 'Morning'), ('SQ002', 'Evening')])
q('207', '20', '1', 'Q21', 'Dual scale', [('L1', 'Low'), ('L2', 'High')], subs=[('SQ001', 'Quality')],
  answers1=[('I1', 'Unimportant'), ('I2', 'Important')], attrs={'dualscale_headerA': 'Rating', 'dualscale_headerB': 'Importance'})
q('208', '20', ':', 'Q22', 'Array of numbers', subs=[('SQ001', 'Apples'), ('SQ002', 'Pears')], subs1=[('X1', 'Week 1'), ('X2', 'Week 2')])
q('209', '20', ';', 'Q23', 'Array of texts', subs=[('R1', 'Line 1')], subs1=[('C1', 'Name'), ('C2', 'City')])
q('210', '20', 'K', 'Q24', 'How many', subs=[('SQ001', 'Adults'), ('SQ002', 'Children')])
q('211', '20', 'Q', 'Q25', 'Your names', subs=[('SQ001', 'First'), ('SQ002', 'Last')])
q('212', '20', 'R', 'Q26', 'Rank these', [('A1', 'Price'), ('A2', 'Quality'), ('A3', 'Service')])
q('213', '20', '|', 'Q27', 'Upload a file')
q('214', '20', '*', 'Q28', '{Q11 * 2}')
q('215', '20', 'X', 'Q29', 'Thank you for the arrays.')
q('216', '20', 'T', 'Q30', 'Both', rel='Q1 == "A1" and Q5 == "Y"')
q('217', '20', 'S', 'Q31', 'Same page', rel='Q15_SQ001 == "5"')
q('301', '30', 'S', 'Q32', 'Anything else?')
q('302', '30', 'Y', 'Q33', 'Green or blue?', rel='Q1 == "A2" or Q1 == "A3"')

def sub_qid(qq, i, scale):
    return str(int(qq['qid']) * 100 + scale * 50 + i + 1)

SURVEY_ROW = {'sid': SID, 'gsid': '1', 'admin': 'Admin', 'language': 'en', 'additional_languages': '', 'datecreated': '2023-03-01', 'format': 'G', 'anonymized': 'N', 'datestamp': 'Y', 'ipaddr': 'Y'}

def rows_xml(name, rows, fields=None):
    fields = fields or (list(rows[0].keys()) if rows else [])
    out = [f' <{name}>', '  <fields>'] + [f'   <fieldname>{f}</fieldname>' for f in fields] + ['  </fields>', '  <rows>']
    for r in rows:
        out.append('   <row>')
        for k, v in r.items():
            out.append(f'    <{k}/>' if v == '' or v is None else f'    <{k}>{cdata(v)}</{k}>')
        out.append('   </row>')
    out += ['  </rows>', f' </{name}>']
    return '\n'.join(out)

def lang_settings(langs, titles):
    return rows_xml('surveys_languagesettings', [
        {'surveyls_survey_id': SID, 'surveyls_language': l, 'surveyls_title': titles[l], 'surveyls_description': '',
         'surveyls_welcometext': 'Welcome!' if l == 'en' else 'Willkommen!', 'surveyls_endtext': ''} for l in langs])

def attributes(lang_col):
    rows = []
    for qq in Q:
        for k, v in qq['attrs'].items():
            r = {'qid': qq['qid'], 'attribute': k, 'value': v}
            if lang_col: r['language'] = ''
            rows.append(r)
    return rows

def lss_6x():
    groups = [{'gid': g, 'sid': SID, 'group_order': str(i + 1), 'randomization_group': '', 'grelevance': rel} for i, (g, _, _, rel) in enumerate(G)]
    gl = [{'id': str(i + 1), 'gid': g, 'group_name': n, 'description': d, 'language': 'en'} for i, (g, n, d, _) in enumerate(G)]
    qs, subs, ql, ans, al = [], [], [], [], []
    aid = 1000
    for i, qq in enumerate(Q):
        qs.append({'qid': qq['qid'], 'parent_qid': '0', 'sid': SID, 'gid': qq['gid'], 'type': qq['type'], 'title': qq['code'], 'preg': '',
                   'other': qq['other'], 'mandatory': qq['mandatory'], 'encrypted': 'N', 'question_order': str(i + 1), 'scale_id': '0',
                   'same_default': '0', 'relevance': qq['rel'], 'question_theme_name': '', 'modulename': ''})
        ql.append({'id': str(len(ql) + 1), 'qid': qq['qid'], 'question': qq['text'], 'help': 'Pick one.' if qq['type'] == 'L' else '', 'script': '', 'language': 'en'})
        for scale, lst in ((0, qq['subs']), (1, qq['subs1'])):
            for j, (code, text) in enumerate(lst):
                sq = sub_qid(qq, j, scale)
                subs.append({'qid': sq, 'parent_qid': qq['qid'], 'sid': SID, 'gid': qq['gid'], 'type': 'T', 'title': code, 'preg': '', 'other': 'N',
                             'mandatory': '', 'encrypted': 'N', 'question_order': str(j + 1), 'scale_id': str(scale), 'same_default': '0', 'relevance': '1'})
                ql.append({'id': str(len(ql) + 1), 'qid': sq, 'question': text, 'help': '', 'script': '', 'language': 'en'})
        for scale, lst in ((0, qq['answers']), (1, qq['answers1'])):
            for j, (code, text) in enumerate(lst):
                aid += 1
                ans.append({'aid': str(aid), 'qid': qq['qid'], 'code': code, 'sortorder': str(j + 1), 'assessment_value': '0', 'scale_id': str(scale)})
                al.append({'id': str(aid), 'aid': str(aid), 'answer': text, 'language': 'en'})
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', '<document>', ' <LimeSurveyDocType>Survey</LimeSurveyDocType>', ' <DBVersion>624</DBVersion>',
             ' <languages>', '  <language>en</language>', ' </languages>',
             rows_xml('answers', ans), rows_xml('answer_l10ns', al), rows_xml('groups', groups), rows_xml('group_l10ns', gl),
             rows_xml('questions', qs), rows_xml('subquestions', subs), rows_xml('question_l10ns', ql),
             rows_xml('question_attributes', attributes(False)), rows_xml('surveys', [SURVEY_ROW]),
             lang_settings(['en'], {'en': 'Moving in from LimeSurvey'}), '</document>', '']
    return '\n'.join(parts)

def lss_2x():
    langs = ['en', 'de']
    de = lambda s: 'DE ' + s
    groups, qs, subs, ans = [], [], [], []
    for lang in ['de', 'en']:  # the base language's rows need not come first
        for i, (g, n, d, rel) in enumerate(G):
            groups.append({'gid': g, 'sid': SID, 'group_name': n if lang == 'en' else de(n), 'group_order': str(i), 'description': d, 'language': lang, 'randomization_group': '', 'grelevance': rel})
        for i, qq in enumerate(Q):
            qs.append({'qid': qq['qid'], 'parent_qid': '0', 'sid': SID, 'gid': qq['gid'], 'type': qq['type'], 'title': qq['code'],
                       'question': qq['text'] if lang == 'en' else de(qq['text']), 'preg': '', 'help': ('Pick one.' if qq['type'] == 'L' else '') if lang == 'en' else '',
                       'other': qq['other'], 'mandatory': qq['mandatory'], 'question_order': str(i), 'language': lang, 'scale_id': '0', 'same_default': '0', 'relevance': qq['rel']})
            for scale, lst in ((0, qq['subs']), (1, qq['subs1'])):
                for j, (code, text) in enumerate(lst):
                    subs.append({'qid': sub_qid(qq, j, scale), 'parent_qid': qq['qid'], 'sid': SID, 'gid': qq['gid'], 'type': 'T', 'title': code,
                                 'question': text if lang == 'en' else de(text), 'preg': '', 'help': '', 'other': 'N', 'mandatory': '', 'question_order': str(j), 'language': lang,
                                 'scale_id': str(scale), 'same_default': '0', 'relevance': '1'})
            for scale, lst in ((0, qq['answers']), (1, qq['answers1'])):
                for j, (code, text) in enumerate(lst):
                    ans.append({'qid': qq['qid'], 'code': code, 'answer': text if lang == 'en' else de(text), 'sortorder': str(j), 'assessment_value': '0', 'language': lang, 'scale_id': str(scale)})
    row = dict(SURVEY_ROW, additional_languages='de ')
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', '<document>', ' <LimeSurveyDocType>Survey</LimeSurveyDocType>', ' <DBVersion>355</DBVersion>',
             ' <languages>', '  <language>en</language>', '  <language>de</language>', ' </languages>',
             rows_xml('answers', ans), rows_xml('groups', groups), rows_xml('questions', qs), rows_xml('subquestions', subs),
             rows_xml('question_attributes', attributes(True)), rows_xml('surveys', [row]),
             lang_settings(langs, {'en': 'Moving in from LimeSurvey', 'de': 'Umzug von LimeSurvey'}), '</document>', '']
    return '\n'.join(parts)

# ---- responses ----
def col(qq, suffix=''):
    return f"{SID}X{qq['gid']}X{qq['qid']}{suffix}"

BY = {qq['code']: qq for qq in Q}
N = 12
responses = []
expected = {}
def tally(code, key, sub=None):
    e = expected.setdefault(code, {})
    if sub is None:
        e[key] = e.get(key, 0) + 1
    else:
        e.setdefault(sub, {})
        e[sub][key] = e[sub].get(key, 0) + 1

for i in range(N):
    r = {'id': str(i + 1), 'submitdate': '' if i in (3, 8) else f'2024-05-{i + 1:02d} 10:{i:02d}:00', 'lastpage': '3', 'startlanguage': 'en',
         'seed': str(1000 + i), 'startdate': f'2024-05-{i + 1:02d} 09:{i:02d}:00', 'datestamp': f'2024-05-{i + 1:02d} 10:{i:02d}:30',
         'ipaddr': f'192.0.2.{i + 1}', 'refurl': '', 'token': 'tok%d' % i if i == 5 else ''}
    answered = set()
    def put(code, suffix, value):
        r[col(BY[code], suffix)] = value
    def choice(code, values, idx, texts):
        v = values[idx % len(values)]
        put(code, '', v)
        if v:
            answered.add(code); tally(code, texts[v])
        return v
    q1 = ['A1', 'A2', 'A3', '-oth-', 'A1', 'A1'][i % 6]
    put('Q1', '', q1); put('Q1', 'other', 'Purple' if q1 == '-oth-' else '')
    tally('Q1', 'other' if q1 == '-oth-' else {'A1': 'Red', 'A2': 'Green', 'A3': 'Blue'}[q1])
    choice('Q2', ['UK', 'FR', 'DE', ''], i, {'UK': 'United Kingdom', 'FR': 'France', 'DE': 'Germany'})
    choice('Q3', ['CAT', 'DOG', ''], i, {'CAT': 'Cat', 'DOG': 'Dog'}); put('Q3', 'comment', 'Fluffy' if i % 4 == 0 else '')
    if i % 4 == 0: tally('Q3', 'other')  # the comment
    choice('Q4', ['F', 'M', 'F', ''], i, {'F': 'Female', 'M': 'Male'})
    q5 = choice('Q5', ['Y', 'N', 'Y'], i, {'Y': 'Yes', 'N': 'No'})
    choice('Q6', ['5', '4', '3', '5', ''], i, {str(n): str(n) for n in range(1, 6)})
    choice('Q7', ['en'], i, {'en': 'en'})
    q8 = '' if i % 5 == 4 else f'Person {i}'
    put('Q8', '', q8); put('Q9', '', 'Long text %d' % i if i % 2 == 0 else ''); put('Q10', '', 'Huge text' if i == 1 else '')
    age = 20 + i * 3
    put('Q11', '', f'{age}.0000000000'); put('Q12', '', f'1990-0{i % 9 + 1}-15 00:00:00' if i % 3 else '')
    for code in ('Q8', 'Q9', 'Q10', 'Q11', 'Q12'):
        if r[col(BY[code])]:
            tally(code, 'answered')
    hob = [['Y', '', ''], ['', 'Y', 'Y'], ['Y', 'Y', ''], ['', '', '']][i % 4]
    for code, v in zip(['SQ001', 'SQ002', 'SQ003'], hob):
        put('Q13', code, v)
        if v: tally('Q13', {'SQ001': 'Reading', 'SQ002': 'Sport', 'SQ003': 'Music'}[code])
    put('Q13', 'other', 'Chess' if i == 7 else '')
    if i == 7: tally('Q13', 'other')
    dev = [['Y', ''], ['Y', 'Y'], ['', '']][i % 3]
    for code, v in zip(['SQ001', 'SQ002'], dev):
        put('Q14', code, v); put('Q14', code + 'comment', 'daily' if v and i == 1 else '')
        if v: tally('Q14', {'SQ001': 'Phone', 'SQ002': 'Laptop'}[code])
    def matrix(code, rel, cells):
        for sub, (rowtext, values, texts) in cells.items():
            v = values[i % len(values)] if rel else ''
            put(code, sub, v)
            if v: tally(code, texts[v], rowtext)
    five = {str(n): str(n) for n in range(1, 6)}
    matrix('Q15', q1 == 'A1', {'SQ001': ('Service', ['5', '4', '3'], five), 'SQ002': ('Price', ['2', '', '1'], five)})
    matrix('Q16', q5 == 'Y', {'SQ001': ('Speed', ['10', '7', '9', '1'], {str(n): str(n) for n in range(1, 11)})})
    matrix('Q17', hob[0] == 'Y', {'SQ001': ('Would return', ['Y', 'U', 'N'], {'Y': 'Yes', 'U': 'Uncertain', 'N': 'No'})})
    matrix('Q18', q8 != '', {'SQ001': ('Prices', ['I', 'S', 'D', 'I'], {'I': 'Increase', 'S': 'Same', 'D': 'Decrease'})})
    bog = {'AO1': 'Bad', 'AO2': 'OK', 'AO3': 'Good'}
    matrix('Q19', age > 30, {'SQ001': ('Staff', ['AO1', 'AO3'], bog), 'SQ002': ('Food', ['AO2', 'AO2', ''], bog)})
    tc = {'AO1': 'Tea', 'AO2': 'Coffee'}
    matrix('Q20', True, {'SQ001': ('Morning', ['AO1', 'AO2', 'AO2'], tc), 'SQ002': ('Evening', ['AO1', ''], tc)})
    # dual scale: the export writes SQ001#0 as SQ001-0 (no '#' in XML names)
    for scale, values, texts in ((0, ['L1', 'L2', 'L2', ''], {'L1': 'Low', 'L2': 'High'}), (1, ['I2', 'I1', ''], {'I1': 'Unimportant', 'I2': 'Important'})):
        v = values[i % len(values)]
        put('Q21', f'SQ001#{scale}', v)
        if v: tally('Q21', texts[v], ['Rating', 'Importance'][scale])
    for y in ('SQ001', 'SQ002'):
        for x in ('X1', 'X2'):
            v = str((i + len(y + x)) % 4) if (i + int(y[-1])) % 3 else ''
            put('Q22', f'{y}_{x}', v)
            if v: tally('Q22', 'answered', {'SQ001': 'Apples', 'SQ002': 'Pears'}[y] + ' / ' + {'X1': 'Week 1', 'X2': 'Week 2'}[x])
    put('Q23', 'R1_C1', 'Ann' if i % 2 else ''); put('Q23', 'R1_C2', 'Paris' if i % 3 == 0 else '')
    for sub, v in (('Line 1 / Name', 'Ann' if i % 2 else ''), ('Line 1 / City', 'Paris' if i % 3 == 0 else '')):
        if v: tally('Q23', 'answered', sub)
    for sub, text, v in (('SQ001', 'Adults', str(i % 3 + 1)), ('SQ002', 'Children', str(i % 2) if i % 4 else '')):
        put('Q24', sub, v)
        if v: tally('Q24', 'answered', text)
    for sub, text, v in (('SQ001', 'First', 'Ann' if i % 2 else ''), ('SQ002', 'Last', 'Lee')):
        put('Q25', sub, v)
        if v: tally('Q25', 'answered', text)
    order = [['A1', 'A2', 'A3'], ['A3', 'A1', ''], ['', '', '']][i % 3]
    for n, code in enumerate(order):
        put('Q26', str(n + 1), code)
        if code: tally('Q26', str(n + 1), {'A1': 'Price', 'A2': 'Quality', 'A3': 'Service'}[code])
    files = '[{"title":"","comment":"","size":"1.2","name":"cv%d.pdf","filename":"fu_x%d","ext":"pdf"}]' % (i, i) if i % 6 == 0 else ''
    put('Q27', '', files); put('Q27', '_filecount', '1' if files else '0')
    if files: tally('Q27', 'answered')
    put('Q28', '', str(age * 2))
    put('Q30', '', 'both' if q1 == 'A1' and q5 == 'Y' else '')
    if q1 == 'A1' and q5 == 'Y': tally('Q30', 'answered')
    put('Q31', '', '')
    put('Q32', '', 'Nothing' if q5 == 'Y' and i % 2 == 0 else '')
    if q5 == 'Y' and i % 2 == 0: tally('Q32', 'answered')
    q33 = ('Y' if i % 2 else 'N') if q1 in ('A2', 'A3') and q5 == 'Y' else ''
    put('Q33', '', q33)
    if q33: tally('Q33', {'Y': 'Yes', 'N': 'No'}[q33])
    responses.append(r)

def lsr():
    fields = list(responses[0].keys())
    def name(f):
        f = f.replace('#', '-')
        return '_' + f if f[0].isdigit() else f
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<document>', ' <LimeSurveyDocType>Responses</LimeSurveyDocType>', ' <DBVersion>624</DBVersion>',
           ' <languages>', '  <language>en</language>', ' </languages>', ' <responses>', '  <fields>']
    out += [f'   <fieldname>{name(f)}</fieldname>' for f in fields]
    out += ['  </fields>', '  <rows>']
    for r in responses:
        out.append('   <row>')
        for k, v in r.items():
            if v != '':
                out.append(f'    <{name(k)}>{cdata(v)}</{name(k)}>')
        out.append('   </row>')
    out += ['  </rows>', ' </responses>', '</document>', '']
    return '\n'.join(out)

def write(path, text):
    with open(os.path.join(HERE, path), 'w', encoding='utf-8') as f:
        f.write(text)

def zipped(path, entries):
    with zipfile.ZipFile(os.path.join(HERE, path), 'w', zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name, (2024, 5, 20, 12, 0, 0)), data, zipfile.ZIP_DEFLATED)

os.makedirs(os.path.join(HERE, 'bad'), exist_ok=True)
s6, s2, rs = lss_6x(), lss_2x(), lsr()
write('survey-6x.lss', s6); write('survey-2x.lss', s2); write('responses.lsr', rs)
tokens = '<?xml version="1.0" encoding="UTF-8"?>\n<document>\n <LimeSurveyDocType>Tokens</LimeSurveyDocType>\n <tokens><rows><row><tid>1</tid><token>tok5</token></row></rows></tokens>\n</document>\n'
zipped('survey-6x.lsa', [(f'survey_{SID}.lss', s6), (f'survey_{SID}_responses.lsr', rs), (f'survey_{SID}_tokens.lst', tokens)])
completed = sum(1 for r in responses if r['submitdate'])
json.dump({'responses': N, 'completed': completed, 'questions': expected}, open(os.path.join(HERE, 'expected.json'), 'w'), indent=1, sort_keys=True)

# ---- inputs to refuse ----
write('bad/truncated.lss', s6[: len(s6) // 2])
lol = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n' + ''.join(
    f' <!ENTITY lol{n} "{("&lol%s;" % ("" if n == 1 else n - 1)) * 10}">\n' for n in range(1, 10)) + ']>\n<document><LimeSurveyDocType>&lol9;</LimeSurveyDocType></document>\n'
write('bad/entities.lss', lol)
zipped('bad/traversal.lsa', [('../../evil.lss', s6), ('survey_1_responses.lsr', rs)])
with zipfile.ZipFile(os.path.join(HERE, 'bad/bomb.lsa'), 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    info = zipfile.ZipInfo('survey_1.lss', (2024, 5, 20, 12, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    with z.open(info, 'w', force_zip64=True) as f:
        chunk = b'\0' * (1 << 20)
        for _ in range(300):
            f.write(chunk)
# A zip whose headers say 100 bytes for an entry that inflates to 10 MB.
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo('survey_1.lss', (2024, 5, 20, 12, 0, 0)), b'<' + b' ' * (10 << 20), zipfile.ZIP_DEFLATED)
data = bytearray(buf.getvalue())
real = (10 << 20) + 1
for sig, off in ((b'PK\x03\x04', 22), (b'PK\x01\x02', 24)):
    i = data.find(sig)
    assert struct.unpack_from('<I', data, i + off)[0] == real
    struct.pack_into('<I', data, i + off, 100)
open(os.path.join(HERE, 'bad/liar.lsa'), 'wb').write(bytes(data))
print('wrote fixtures:', N, 'responses,', completed, 'completed')
