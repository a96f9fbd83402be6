package OCRRealText;

# What the real-like set (bench/ocr/lib/OCRReal.pm) puts on screen: the
# lines of its subtitles, captions, chyrons, credits and tickers, in the
# four languages it reads (English, Spanish, Russian, Simplified
# Chinese).  Every pool is split in two by position: the videos of the
# "tune" half draw from its even entries, those of the "holdout" half
# from its odd ones, so that no holdout line was ever seen while tuning.
#
#   pool(NAME, HALF)   the pool's entries of that half (a list)

use strict;
use warnings;
use utf8;

use Exporter 'import';

our @EXPORT_OK = qw(pool);

my %POOLS = (
    # film and series subtitles
    eng => [
        'Where did you put the old letters?', 'I thought you left for good.',
        'The bus was late again this morning.',
        'Nobody told me about the fire.',
        'Keep your hands where I can see them.', 'We ran out of coffee at six.',
        'She painted the whole house blue.', 'How long have you lived here?',
        'Tell him I will call tomorrow.', 'It was never about the money.',
        'The bridge closes at midnight.', 'Do you still have the photos?',
        'My sister moved to Canada.', 'You should see a doctor, really.',
        'The river froze that winter.', 'I found your keys in the garden.',
        'Can you hear the music downstairs?', 'We lost the map near the lake.',
        'He kept every ticket he ever bought.', 'Please sit down, it is late.',
        'The storm knocked the power out.', 'Why are you whispering?',
        'I remember the smell of the bakery.', 'The last ferry left at nine.',
        'Your mother called twice today.', 'I have a bad feeling about this.',
        'The garden looks better every year.', 'They sold the piano last week.',
        'Wake me up before the border.', 'Nobody lives on that island now.',
        'This road used to be a river.', 'Take the umbrella, just in case.',
        'The kitchen light is still on.', 'We met at a wedding in June.',
        'I never learned to swim.', 'Everybody knows except your father.',
        'The dog barked all night long.', 'Put the box next to the door.',
        'The children are asleep at last.', 'Thank you for coming so far.',
    ],
    spa => [
        '¿Dónde están las llaves del coche?', 'No quiero volver a esa casa.',
        'El tren sale a las nueve y media.', 'Mañana hablamos con calma.',
        'Nadie sabe qué pasó aquella noche.', 'Cierra la puerta, por favor.',
        'Llevamos tres días sin noticias.',
        'La reunión empieza en diez minutos.',
        '¿Has visto a mi hermano?', 'Todo saldrá bien, ya verás.',
        'El mercado abre al amanecer.', 'Hace demasiado frío para salir.',
        'Te esperé toda la tarde.', 'Vamos a llegar tarde otra vez.',
        'Mi abuela nació en este pueblo.', 'No encuentro mis gafas.',
        'La película empieza a las ocho.', '¿Por qué no me lo dijiste?',
        'El médico dice que descanses.', 'Compramos pan y queso en la plaza.',
        'Esta calle era un río antes.', 'Ella siempre llega temprano.',
        'Apaga la luz de la cocina.', 'Nos vemos en la estación.',
        'El perro ladró toda la noche.', 'Gracias por venir desde tan lejos.',
        'Perdimos el último autobús.', 'La casa necesita una mano de pintura.',
        '¿Cuánto cuesta el billete?', 'Los niños ya están dormidos.',
    ],
    rus => [
        'Где ты был всю ночь?', 'Я не помню его имени.',
        'Поезд опаздывает на час.', 'Закрой окно, холодно.',
        'Мы уезжаем завтра утром.', 'Она никогда не звонила.',
        'Это была моя ошибка.', 'Сколько стоит билет?',
        'Подожди меня у входа.', 'Всё будет хорошо.',
        'Кто оставил дверь открытой?', 'Я прочитал твоё письмо.',
        'Ты опять опоздал.', 'Давай начнём сначала.',
        'Он работает в больнице.', 'Не говори ей ничего.',
        'Река замёрзла в ту зиму.', 'Мама звонила два раза.',
        'Мы встретились на свадьбе.', 'Возьми зонт на всякий случай.',
        'Свет на кухне ещё горит.', 'Собака лаяла всю ночь.',
        'Спасибо, что приехал так далеко.', 'Я никогда не умел плавать.',
        'Дети наконец уснули.', 'Поставь коробку у двери.',
        'Этот дом продали весной.', 'Почему ты шепчешь?',
    ],
    chi_sim => [
        '你怎么会在这里', '这件事跟你没关系', '我已经等了你三年',
        '她是我妹妹', '合同明天必须签', '你骗了我这么久',
        '公司的事我来处理', '今晚的宴会你一定要来', '我们离婚吧',
        '他根本不爱你', '把这份文件送过去', '妈妈的病好多了',
        '这是我最后的决定', '你到底想要什么', '我会证明给你看',
        '别再来找我了', '董事长马上就到', '对不起我来晚了',
        '你相信我一次好吗', '这些年你过得好吗', '门口有人在等你',
        '我们明天再说吧', '这个秘密只有你知道', '请把灯关上',
        '他昨天去了上海', '我不想再见到他', '孩子们都睡着了',
        '今天的雨下得很大',
    ],
    # Chinese over English: film subtitles in two lines
    bilingual => [
        ['我们得在天黑前赶到', 'We have to get there before dark'],
        ['你还记得那个夏天吗', 'Do you remember that summer?'],
        ['别担心我会回来的', "Don't worry, I will be back"],
        ['这条路通向哪里', 'Where does this road lead?'],
        ['他从来没有说过', 'He never said a word'],
        ['明天的会议取消了', "Tomorrow's meeting is cancelled"],
        ['把灯关掉', 'Turn off the light'],
        ['我们认识很久了', 'We have known each other for years'],
        ['外面下雨了', 'It is raining outside'],
        ['这是最后一次机会', 'This is the last chance'],
        ['谁给你打的电话', 'Who called you?'],
        ['我不想再等了', 'I do not want to wait anymore'],
        ['你的护照在哪里', 'Where is your passport?'],
        ['火车晚点了两个小时', 'The train is two hours late'],
        ['我们去海边吧', "Let's go to the sea"],
        ['这不是你的错', 'It is not your fault'],
    ],
    # short lines: 2-5 CJK characters, and two-glyph lines alone
    cjk_short => [
        '为什么', '我知道了', '不可能', '真的吗', '谢谢你', '没关系',
        '小心点', '好久不见', '再见了', '等一下', '快回来', '听我说',
        '太好了', '我不信', '跟我来', '别走啊', '你是谁', '开始吧',
    ],
    cjk_two => [
        '好的', '走吧', '等等', '快跑', '别怕', '是你', '出发', '救命',
        '真的', '放手', '住手', '晚安',
    ],
    eng_words => [
        'No.', 'Yes!', 'Go!', 'Run!', 'Why?', 'OK', 'Now!', 'Wait', 'Stop',
        'Hi.', 'Oh!', 'So?', 'Me?', 'Help', 'Look', 'Sure', 'Fine', 'Who?',
        'I', 'Us?', 'Hush', 'Yes.',
    ],
    spa_words => [
        'Sí.', 'No!', 'Ya', 'Vale', 'Hola', 'Mira', 'Ven', 'Oye', '¿Qué?',
        'Dale', 'Voy', 'Bien', 'Ay!', 'Eh?', 'Así', 'Nada',
    ],
    # spaced capitals: places and dates
    caps => [
        'LISBON, PORTUGAL 1974', 'THREE YEARS LATER', 'NORTH SEA, WINTER',
        'THE NEXT MORNING', 'BERLIN, NOVEMBER 1989', 'SIX WEEKS EARLIER',
        'OSAKA HARBOUR', 'THE FIRST DAY', 'VALPARAISO, CHILE',
        'TWO HOURS BEFORE', 'ROUTE 66, ARIZONA', 'THE LAST NIGHT',
    ],
    rus_caps => [
        'МОСКВА, 1961', 'ТРИ ГОДА СПУСТЯ', 'НОВОСИБИРСК', 'НА СЛЕДУЮЩИЙ ДЕНЬ',
        'КАЗАНЬ, ЗИМА', 'ЗА ДВЕ НЕДЕЛИ ДО', 'ПОРТ ВЛАДИВОСТОК',
        'ПОСЛЕДНИЙ ДЕНЬ',
    ],
    spa_caps => [
        'SEVILLA, 1992', 'TRES AÑOS DESPUÉS', 'BUENOS AIRES',
        'A LA MAÑANA SIGUIENTE',
        'CUENCA, INVIERNO', 'DOS SEMANAS ANTES', 'PUERTO DE VIGO',
        'EL ÚLTIMO DÍA',
    ],
    # news: chyrons and bars
    eng_news => [
        'Storm warning for the northern coast until Friday',
        'City council approves new bike lanes',
        'Train services resume after a three hour delay',
        'Markets close higher on strong jobs data',
        'Local team wins 2-1 in extra time',
        'Water supply restored in the old town',
        'New bridge opens to traffic next month',
        'Schools closed on Monday due to snow',
        'Airport strike called off after talks',
        'Record crowd for the spring marathon',
    ],
    spa_news => [
        'Alerta amarilla por lluvias en Galicia',
        'El Gobierno aprueba la subida de las pensiones',
        'La Bolsa cierra con una subida del 1,2 %',
        'Cortes de tráfico por obras en la M-30',
        'Huelga de taxis en Barcelona este jueves',
        'Récord de visitantes en el Museo del Prado',
        'El Betis gana 3-1 en casa',
        'Nueva línea de metro en Valencia',
        'Suben los precios del aceite de oliva',
        'Temperaturas de hasta 40 grados en Sevilla',
    ],
    rus_news => [
        'Курс рубля вырос на два процента',
        'В Москве ожидается снег до пятницы',
        'Открыт новый мост через Волгу',
        'Сборная выиграла со счётом 3:1',
        'Метро работает в обычном режиме',
        'В Казани открылась книжная ярмарка',
        'Цены на бензин не изменились',
        'Аэропорт принимает рейсы по расписанию',
        'В Сочи начался бархатный сезон',
        'Библиотека закрыта на ремонт до мая',
    ],
    # lower thirds: a name and what they are
    eng_names => [
        ['Maria Lopez', 'City council'], ['Dr Peter Holm', 'Climate scientist'],
        ['Aisha Bello', 'Head teacher'], ['Tom Reyes', 'Fisherman'],
        ['Greta Sundberg', 'Mountain guide'], ['Kwame Mensah', 'Architect'],
    ],
    spa_names => [
        ['Lucía Martín', 'Alcaldesa de Cuenca'], ['Jorge Vidal', 'Pescador'],
        ['Elena Ortiz', 'Médica de familia'], ['Andrés Soto', 'Agricultor'],
        ['Rosa Delgado', 'Profesora'], ['Iván Prieto', 'Bombero'],
    ],
    # orange hand-drawn lettering, bars, titles
    eng_titles => [
        'The Long Winter', 'Chapter Three', 'Northern Lights', 'Coming Home',
        'The Last Harvest', 'Part Two', 'Salt and Stone', 'After the Rain',
    ],
    spa_titles => [
        'El largo invierno', 'Capítulo tres', 'Luces del norte',
        'Volver a casa',
        'La última cosecha', 'Segunda parte', 'Sal y piedra',
        'Después de la lluvia',
    ],
    eng_bars => ['BREAKING NEWS', 'LIVE', 'WEATHER ALERT', 'SPORT',
                 'LATEST', 'TRAFFIC'],
    spa_bars => ['ÚLTIMA HORA', 'EN DIRECTO', 'ALERTA', 'DEPORTES',
                 'TRÁFICO', 'EL TIEMPO'],
    # credits: a role and a name per entry
    eng_credits => [
        ['Directed by', 'Ana Ferreira'], ['Written by', 'Tom Okafor'],
        ['Music by', 'Lena Brandt'], ['Director of Photography', 'Kenji Mori'],
        ['Edited by', 'Paula Reyes'], ['Sound Design', 'Marco Bellini'],
        ['Production Designer', 'Ines Castro'],
        ['Costume Design', 'Yuki Tanaka'],
        ['Executive Producer', 'Samuel Green'],
        ['Casting by', 'Nora Lindqvist'],
        ['Visual Effects', 'Studio Nine'], ['Colourist', 'Ravi Patel'],
        ['Animation Director', 'Chloe Martin'], ['Storyboards', 'Daniel Weiss'],
    ],
    spa_credits => [
        ['Dirigida por', 'Lucía Martín'], ['Guion', 'Álvaro Núñez'],
        ['Música', 'Carmen Ibáñez'], ['Fotografía', 'Javier Peña'],
        ['Montaje', 'Sofía Gómez'], ['Sonido', 'Diego Fernández'],
        ['Vestuario', 'Marta Ruiz'], ['Producción ejecutiva', 'Pablo Ortega'],
        ['Dirección de arte', 'Inés Calvo'], ['Maquillaje', 'Beatriz Moreno'],
        ['Animación', 'Raúl Herrero'], ['Casting', 'Nuria Pascual'],
    ],
);

sub pool {
    my ($name, $half) = @_;
    my $p = $POOLS{$name} or die "no text pool $name";
    my $odd = $half eq 'holdout' ? 1 : 0;
    return map { $p->[$_] } grep { $_ % 2 == $odd } 0 .. $#$p;
}

1;
