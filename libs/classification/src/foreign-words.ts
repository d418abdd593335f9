/**
 * Rough sentiment support for Spanish, French, German, Portuguese and Italian: their common
 * sentiment words and negators are swapped for an English word VADER scores (vader-input.ts), so
 * VADER's own rules (negation, boosters, "but", punctuation) still apply. Keys are in folded form
 * (see foldForMatching). Words that are also common English words ("gut", "content", "toll",
 * "mist") are left out on purpose.
 */
export const ENGLISH_BY_FOREIGN_WORD: Readonly<Record<string, string>> = {
  // negators
  nao: 'not', pas: 'not', nicht: 'not', nunca: 'never', jamais: 'never', nie: 'never', mai: 'never',
  kein: 'no', keine: 'no', nadie: 'nobody', personne: 'nobody',
  // positive
  encanta: 'love', encantan: 'love', amo: 'love', amei: 'loved', adorei: 'loved', adore: 'love',
  adoro: 'love', liebe: 'love',
  excelente: 'excellent', ottimo: 'excellent', otimo: 'great',
  bonito: 'beautiful', bonita: 'beautiful', lindo: 'beautiful', linda: 'beautiful', beau: 'beautiful',
  belle: 'beautiful', bello: 'beautiful', bellissimo: 'beautiful', bellissima: 'beautiful',
  schoen: 'beautiful', schoenes: 'beautiful', magnifique: 'magnificent', maravilhoso: 'wonderful',
  maravilloso: 'wonderful', merveilleux: 'wonderful', wunderbar: 'wonderful',
  gracias: 'thanks', merci: 'thanks', danke: 'thanks', obrigado: 'thanks', obrigada: 'thanks', grazie: 'thanks',
  recomiendo: 'recommend', recomendo: 'recommend', recommande: 'recommend', empfehle: 'recommend',
  bueno: 'good', buen: 'good', buena: 'good', bom: 'good', boa: 'good', bon: 'good', bonne: 'good',
  buono: 'good', gute: 'good', guter: 'good', gutes: 'good',
  genial: 'great', geniale: 'great', tolle: 'great', tolles: 'great', toller: 'great', klasse: 'great',
  demais: 'great', maximo: 'best', mejor: 'best', meilleur: 'best', melhor: 'best', beste: 'best',
  increible: 'incredible', incroyable: 'incredible', incrivel: 'incredible', fantastico: 'fantastic',
  parfait: 'perfect', perfecto: 'perfect', perfeito: 'perfect', perfekt: 'perfect', perfetto: 'perfect',
  gefaellt: 'like', hilfreich: 'helpful', util: 'useful', utile: 'useful',
  parabens: 'congratulations', felicidades: 'congratulations', felicitations: 'congratulations',
  complimenti: 'congratulations', feliz: 'happy', heureux: 'happy', contento: 'happy',
  // negative
  pesimo: 'terrible', pesima: 'terrible', pessimo: 'terrible', pessima: 'terrible',
  malo: 'bad', mala: 'bad', mal: 'bad', mauvais: 'bad', ruim: 'bad', schlecht: 'bad', schlechte: 'bad',
  schlechter: 'bad', brutto: 'ugly', horrivel: 'horrible', orribile: 'horrible',
  schlechteste: 'worst', schlechtester: 'worst', peor: 'worst', pire: 'worst', pior: 'worst',
  nul: 'awful', nulle: 'awful', decepcion: 'disappointment', decepcao: 'disappointment',
  decepcionado: 'disappointed', decepcionada: 'disappointed', decu: 'disappointed', decue: 'disappointed',
  enttaeuscht: 'disappointed', deluso: 'disappointed', inadmissible: 'unacceptable', inaceptable: 'unacceptable',
  inaceitavel: 'unacceptable', estafa: 'scam', arnaque: 'scam', golpe: 'scam', betrug: 'scam',
  odio: 'hate', deteste: 'hate', hasse: 'hate', raiva: 'anger', rabia: 'anger', triste: 'sad', traurig: 'sad',
  kaputt: 'broken', roto: 'broken', quebrado: 'broken', casse: 'broken',
};
