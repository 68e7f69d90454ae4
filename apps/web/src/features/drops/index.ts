// What other features use of drops: the banner and drop artwork.
export { BannerArt, bannerNames, DropArt, RARITY_COLORS } from './art';
