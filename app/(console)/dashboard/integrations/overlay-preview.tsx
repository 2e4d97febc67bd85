import { useTranslations } from "next-intl";
/**
 * A live, approximate preview of the overlay while typing: the text at the bottom over a dark
 * scrim, as the server draws it on most pictures. The server measures the real layout (size,
 * band, light or dark) on the image itself.
 */
export function OverlayPreview({ image, title, artist }: { image: string | null; title: string; artist: string }) {
  const t = useTranslations("integrations");
  return (
    <div className="space-y-1" data-testid="overlay-preview">
      <p className="text-xs font-semibold text-slate-800">{t("preview")}</p>
      <div
        className="relative aspect-square w-full max-w-xs overflow-hidden rounded-md border border-slate-200 bg-slate-800 bg-cover bg-center"
        style={image ? { backgroundImage: `url(${JSON.stringify(image)})` } : undefined}
      >
        {!image && <p className="p-4 text-xs text-slate-300">{t("previewEmpty")}</p>}
        <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/60 to-transparent px-[7%] pb-[7%] pt-10 text-center text-white">
          {artist && <p className="text-sm font-semibold leading-tight">{artist}</p>}
          {title && <p className="break-words text-xl font-extrabold leading-tight">{title}</p>}
        </div>
      </div>
    </div>
  );
}
