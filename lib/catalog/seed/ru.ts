import type { JsonSchema, RussianOverlay } from "@/db/schema/models";

/**
 * The Russian overlay (`schemaRu`): the same structure as `schema.input`, carrying only `title`
 * and `description` in Russian. Clients merge it over the English schema by path.
 */
const ru: Record<string, { title: string; description?: string }> = {
  prompt: { title: "Промпт", description: "Описание того, что нужно сгенерировать." },
  negative_prompt: { title: "Негативный промпт", description: "Чего не должно быть в результате." },
  seed: { title: "Сид", description: "Один и тот же сид с теми же параметрами даёт тот же результат." },
  image_size: { title: "Размер изображения", description: "Пресет или свой размер в пикселях." },
  width: { title: "Ширина" },
  height: { title: "Высота" },
  aspect_ratio: { title: "Соотношение сторон", description: "Отношение ширины к высоте результата." },
  num_inference_steps: { title: "Шаги генерации", description: "Больше шагов — больше деталей, но дольше." },
  guidance_scale: { title: "Сила следования промпту", description: "Насколько точно результат следует промпту." },
  cfg_scale: { title: "CFG", description: "Насколько точно видео следует промпту." },
  num_images: { title: "Количество изображений", description: "Сколько изображений сгенерировать." },
  enable_safety_checker: { title: "Проверка безопасности", description: "Помечать небезопасные результаты." },
  image_url: { title: "URL изображения", description: "Публичный HTTPS-адрес исходного изображения." },
  strength: { title: "Сила изменения", description: "Насколько меняется исходное изображение: 0 — не меняется, 1 — заменяется полностью." },
  upscale_factor: { title: "Коэффициент увеличения", description: "Во сколько раз результат больше по каждой стороне." },
  duration: { title: "Длительность", description: "Длительность в секундах." },
  seconds_total: { title: "Длительность", description: "Длительность аудио в секундах." },
  text: { title: "Текст", description: "Текст для озвучивания." },
  voice: { title: "Голос", description: "Каким голосом читать текст." },
  speed: { title: "Скорость", description: "Темп речи." },
  audio_url: { title: "URL аудио", description: "Публичный HTTPS-адрес аудиофайла." },
  reference_text: { title: "Текст образца", description: "Что произносится в образце голоса." },
  name: { title: "Название", description: "Название клонированного голоса." },
  noise_reduction: { title: "Шумоподавление", description: "Сначала очистить образец от шума." },
  task: { title: "Задача", description: "Расшифровать или перевести на английский." },
  language: { title: "Язык", description: "Язык речи; определяется автоматически, если не указан." },
  chunk_level: { title: "Разбивка", description: "Метки времени по фрагментам или по словам." },
  lyrics: { title: "Текст песни", description: "Слова песни; понимает теги [verse] и [chorus]." },
  input: { title: "Текст", description: "Текст или список текстов для векторизации." },
  normalize: { title: "Нормализация", description: "Возвращать векторы единичной длины." },
  expand_prompt: { title: "Улучшить промпт", description: "Дописать промпт автоматически." },
  output_format: { title: "Формат", description: "Формат файла результата." },
  style: { title: "Стиль", description: "Визуальный стиль результата." },
  generate_audio: { title: "Звук", description: "Сгенерировать звуковую дорожку." },
  resolution: { title: "Разрешение", description: "Разрешение результата." },
  texture: { title: "Текстура", description: "Сгенерировать текстуру модели." },
  emotion: { title: "Эмоция", description: "Эмоциональная окраска речи." },
  creativity: { title: "Креативность", description: "Сколько новых деталей добавить." },
  raw: { title: "Без обработки", description: "Меньше обработки, более естественный вид." },
  loras: { title: "LoRA-адаптеры", description: "Какие адаптеры применить, каждый со своим весом." },
  prompt_optimizer: { title: "Улучшение промпта" },
  motion_bucket_id: { title: "Движение", description: "Чем больше, тем больше движения." },
  steps: { title: "Шаги генерации" },
  texture_size: { title: "Размер текстуры" },
};

function overlay(name: string, schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  const t = ru[name];
  if (t) {
    out.title = t.title;
    if (t.description && typeof schema.description === "string") out.description = t.description;
  }
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props) out.properties = overlayProperties(props);
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf?.some((s) => s.properties))
    out.anyOf = anyOf.map((s) => (s.properties ? { properties: overlayProperties(s.properties as Record<string, JsonSchema>) } : {}));
  return out;
}

function overlayProperties(props: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, overlay(k, v)]));
}

export function russianOverlay(input: JsonSchema, description?: string): RussianOverlay {
  const overlay = { input: { properties: overlayProperties((input.properties ?? {}) as Record<string, JsonSchema>) } };
  return description ? { ...overlay, description } : overlay;
}
