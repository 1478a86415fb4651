import type { Image } from "~/contract/schemas";

/** An image with its size always set; lazy unless it is the page's largest, first-seen image. */
export function Picture({
  image,
  priority = false,
  className,
  sizes,
}: {
  image: Image;
  priority?: boolean;
  className?: string;
  sizes?: string;
}) {
  return (
    <img
      className={className}
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      sizes={sizes}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "sync" : "async"}
      {...(priority ? { fetchpriority: "high" } : {})}
    />
  );
}
