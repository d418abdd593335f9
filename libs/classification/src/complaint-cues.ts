import { words } from './cue-matching';

/**
 * Problem and dissatisfaction phrases (folded text) in English, Spanish, French, German,
 * Portuguese and Italian. Each pattern counts once toward the complaint score.
 */
export const COMPLAINT_CUES: readonly RegExp[] = [
  // things not working
  words("(?:doesn'?t|does not|don'?t|didn'?t|won'?t|isn'?t|is not|not|stopped|never) work(?:s|ing|ed)?", 'not loading', "won'?t (?:load|open|start)", 'keeps? (?:crashing|freezing|saying|logging)'),
  words('broke', 'broken', 'crash(?:es|ed|ing)?', 'buggy', 'bugs?', 'glitch(?:es|y)?', 'freez(?:es|ing)', 'lag(?:s|gy)?', 'unusable', 'down again', 'outage', 'is down', 'cutting out', 'logged (?:me )?out', 'log(?:s)? me out', 'invalid', 'error', 'slow', 'nothing (?:loads|works)', 'same (?:issue|problem) here'),
  words('wiped', 'gone', 'got lost', 'lost my (?:package|parcel|order|data|files)', 'damaged', 'ripped', 'melts?', 'wrong (?:size|colou?r|item|order)', 'cardboard'),
  // waiting, delivery, money
  words('still (?:waiting|not|no|hasn\'?t|haven\'?t|processing|crashing|broken)', '(?:been |keep |keeps )waiting', 'waiting (?:for|on) (?:my|a|an|your|the) (?:refund|order|reply|response|package|parcel|delivery|answer|fix|money)', 'waited', 'on hold', 'hasn\'?t (?:shipped|arrived)', "didn'?t (?:receive|arrive|get)", 'never (?:arrived|received|sent|came)', 'not received', 'where is my', 'late'),
  words('refund', 'money back', 'charged (?:twice|me|for)', 'overpriced', 'too expensive', 'so expensive', 'not worth', 'price went up', 'raise prices', 'rip-?off', 'scam'),
  // service
  words('no reply', 'no response', 'no answer', 'nobody (?:answers|replies|helps|is helping|responds)', 'ignore(?:s|d)?', 'useless', 'rude', 'do better', 'fix (?:this|it|your|the)', 'please fix', 'unsubscribed', 'cancel(?:l?ed|ling)', 'uninstall(?:ed|ing)?', 'never (?:ordering|buying|again)', 'not coming back', 'too many ads'),
  // judgement
  words('worst', 'terrible', 'awful', 'horrible', 'disappoint(?:ed|ing|ment)', 'unacceptable', 'frustrat(?:ed|ing)', 'hate', 'sucks?', 'garbage', 'trash', 'a joke', 'meh', 'downhill', 'worse', 'underwhelming', 'not (?:happy|impressed|great)', "(?:don'?t|do not) like", 'annoying', 'ridiculous', 'used to (?:love|be|make)', 'was better', 'not anymore', 'no longer', 'stop (?:sending|spamming|emailing|changing)'),
  // Spanish / Portuguese / Italian
  words('no funciona', 'nao funciona', 'non funziona', 'pesim[oa]', 'pessim[oa]', 'mal[oa]', 'decepcion', 'decepcao', 'esperando', 'reembolso', 'devuelven el dinero', 'nadie me atiende', 'horrivel', 'nao comprem', 'raiva', 'cade (?:meu|minha|o|a)', 'mai piu', 'estafa'),
  // French / German
  words('nul', 'plante', 'ne marche pas', 'marche pas', 'pas recu', 'toujours pas', 'inadmissible', 'en panne', 'jamais de reponse', 'arnaque', 'rembours\\w*', 'decu', 'funktioniert nicht', 'enttaeuscht', 'schlecht\\w*', 'stuerzt\\w*', 'absturz\\w*', 'dauert \\w* ?so lange', 'nie wieder', 'kaputt'),
];

/**
 * What makes a question blunt ("Are you ever going to answer?", "Why would anyone pay $30?"):
 * in a question these count as complaint cues, elsewhere they mean nothing.
 */
export const BLUNT_QUESTION_CUES: readonly RegExp[] = [
  words('why would', 'why did you (?:remove|change|get rid|drop)', 'ever going to', 'are you ever', 'or something', 'seriously', 'again', 'even', "what'?s the point", 'how many more', 'so you just', 'is this a joke'),
  /\?{2,}/g,
];
